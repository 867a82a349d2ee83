/**
 * Matching definition names against a plan's pattern expression, with the ranking tier of the best
 * hit: the whole name, a prefix, or a substring. Names are short, so JavaScript RegExps suffice.
 */
import type { ShardPlan } from './plan.js';
import { evalExpr } from './verify.js';

export const TIER_SUBSTRING = 1;
export const TIER_PREFIX = 2;
export const TIER_EXACT = 3;

/** The tier of `name` (TIER_*), or 0 when the expression rejects it. */
export type NameMatcher = (name: string) => number;

export function nameMatcher(plan: ShardPlan): NameMatcher {
  const expr = plan.expr;
  if (!expr) return () => TIER_SUBSTRING;
  const regexes = plan.patterns.map((spec) => new RegExp(spec.js, spec.caseless ? 'iu' : 'u'));
  return (name) => {
    const hits = regexes.map((re) => re.exec(name));
    if (!evalExpr(expr, plan, (atom) => hits[atom] !== null)) return 0;
    let tier = TIER_SUBSTRING;
    hits.forEach((hit, atom) => {
      if (!hit || plan.atoms[atom]!.negated) return;
      const found = hit.index === 0 && hit[0].length === name.length ? TIER_EXACT : hit.index === 0 ? TIER_PREFIX : TIER_SUBSTRING;
      tier = Math.max(tier, found);
    });
    return tier;
  };
}
