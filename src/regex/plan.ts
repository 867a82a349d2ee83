/**
 * Turns a search pattern (RE2 regex or literal text) into everything later stages need: the pattern
 * in each engine's dialect, its case mode, the trigram query that narrows candidates, and shortcuts.
 */

import { createError } from '../errors.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { TrigramQuery } from '../model/trigram.js';
import { EMPTY, isNullable, type RegexNode } from './ast.js';
import { exponentialBacktracking } from './backtracking.js';
import { hasCaseVariants } from './case-fold.js';
import { decideCaseless } from './case-mode.js';
import { Cursor } from './cursor.js';
import { parseRegex } from './parse.js';
import { plainTextOf, type PlainText } from './plain-text.js';
import { toHyperscan } from './to-hyperscan.js';
import { toJs } from './to-js.js';
import { regexTrigramQuery } from './trigram-query.js';

export interface RegexPlan {
  /** Dialect sources and the case mode both engines must use. */
  readonly spec: PatternSpec;
  /** Every document containing a match satisfies this. */
  readonly trigrams: TrigramQuery;
  /** The exact text when the pattern is plain text, to be matched with `spec.caseless`; else null. */
  readonly literal: string | null;
  /** The pattern as plain text with its line anchors, when it is one (ASCII-only when caseless); else null. */
  readonly plain: PlainText | null;
  /** True if the pattern can match the empty string (assertions assumed satisfiable). */
  readonly matchesEmpty: boolean;
  /**
   * A Hyperscan source exact on pure-ASCII text only, when it is simpler than `spec.hyperscan`
   * (case-insensitive classes carry U+017F and U+212A, which slow Hyperscan down); else null.
   */
  readonly asciiHyperscan: string | null;
}

export interface PlanOptions {
  readonly caseSensitive: boolean;
}

/**
 * Plans of recent regexes: a long regex takes tens of milliseconds of this thread to plan, and
 * agents repeat their queries. Plans are immutable; only successful plans are kept. Bounded by
 * entries and by an estimate of their bytes: a hostile regex's plan (`a?`ⁿ`a`ⁿ, caseless) holds a
 * trigram query of hundreds of kilobytes, and 1,024 of those held 300 MB of this thread's heap.
 */
const recentPlans = new Map<string, { readonly plan: RegexPlan; readonly bytes: number }>();
const RECENT_PLANS = 1024;
const RECENT_PLAN_BYTES = 32 * 2 ** 20;
/** A plan heavier than this is not kept: it would push out dozens of ordinary ones. */
const MAX_KEPT_PLAN_BYTES = RECENT_PLAN_BYTES / 16;
/** Rough bytes of one trigram query node (object, args array slot, number) in V8. */
const TRIGRAM_NODE_BYTES = 64;
let recentPlanBytes = 0;

/** The plan cache's size, for tests and diagnostics. */
export function recentPlanStats(): { readonly entries: number; readonly bytes: number } {
  return { entries: recentPlans.size, bytes: recentPlanBytes };
}

/** Plans an RE2-syntax regex; `caseSensitive: false` acts like a leading `(?i)`. */
export function planRegex(source: string, opts: PlanOptions): RegexPlan {
  const key = `${opts.caseSensitive ? 's' : 'i'}${source}`;
  const known = recentPlans.get(key);
  if (known !== undefined) {
    recentPlans.delete(key);
    recentPlans.set(key, known);
    return known.plan;
  }
  const plan = planParsed(parseRegex(source, !opts.caseSensitive), opts, source);
  const bytes = planBytes(key, plan);
  if (bytes > MAX_KEPT_PLAN_BYTES) return plan;
  recentPlans.set(key, { plan, bytes });
  recentPlanBytes += bytes;
  for (const [oldest, old] of recentPlans) {
    if (recentPlans.size <= RECENT_PLANS && recentPlanBytes <= RECENT_PLAN_BYTES) break;
    recentPlans.delete(oldest);
    recentPlanBytes -= old.bytes;
  }
  return plan;
}

/** Strings at two bytes a character, and the distinct nodes of the trigram query (shared subtrees once). */
function planBytes(key: string, plan: RegexPlan): number {
  const { spec } = plan;
  const chars = key.length + (spec.hyperscan?.length ?? 0) + spec.js.length + (plan.literal?.length ?? 0) + (plan.asciiHyperscan?.length ?? 0);
  const seen = new Set<TrigramQuery>();
  const stack: TrigramQuery[] = [plan.trigrams];
  const limit = MAX_KEPT_PLAN_BYTES / TRIGRAM_NODE_BYTES;
  while (stack.length > 0 && seen.size <= limit) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if ('args' in node) for (const arg of node.args) stack.push(arg);
  }
  return 2 * chars + seen.size * TRIGRAM_NODE_BYTES;
}

/** Plans a search for `text` itself, with no regex syntax. */
export function planLiteral(text: string, opts: PlanOptions): RegexPlan {
  const cursor = new Cursor(text);
  const items: RegexNode[] = [];
  while (!cursor.atEnd()) items.push({ kind: 'literal', cp: cursor.nextCodePoint(), fold: !opts.caseSensitive });
  const root: RegexNode = items.length === 0 ? EMPTY : items.length === 1 ? (items[0] as RegexNode) : { kind: 'concat', items };
  return planParsed(root, opts, text);
}

function planParsed(root: RegexNode, opts: PlanOptions, source: string): RegexPlan {
  const caseless = decideCaseless(root, !opts.caseSensitive, source);
  // Hyperscan gets case variants spelled out ([fF]) rather than its slower caseless mode.
  const hyperscan = toHyperscan(root, false);
  if (hyperscan === null) refuseExponentialBacktracking(root);
  const asciiHyperscan = hyperscan === null ? null : toHyperscan(root, false, true);
  return {
    spec: { hyperscan, js: toJs(root, caseless), caseless, hyperscanCaseless: false },
    asciiHyperscan: asciiHyperscan === hyperscan ? null : asciiHyperscan,
    trigrams: regexTrigramQuery(root),
    literal: literalText(root, caseless),
    plain: plainTextOf(root),
    matchesEmpty: isNullable(root),
  };
}

/**
 * Only the JS engine runs a pattern Hyperscan cannot take, and it backtracks: refused here, before
 * any worker spends its deadline on it, when its running time can be exponential.
 */
function refuseExponentialBacktracking(root: RegexNode): void {
  const why = exponentialBacktracking(root);
  if (why === null) return;
  throw createError('PATTERN_UNSUPPORTED', `pattern too costly: it has ${why}, which can take exponential time with the backreference or look-around it also has (those run on a backtracking engine); remove the nesting, or the backreference or look-around`, { reason: 'backtracking' });
}

function literalText(node: RegexNode, caseless: boolean): string | null {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'literal':
      // A folded literal outside a caseless pattern is spelled as a class, so it is no plain text.
      return caseless || !node.fold || !hasCaseVariants(node.cp) ? String.fromCodePoint(node.cp) : null;
    case 'group':
      return literalText(node.body, caseless);
    case 'concat': {
      const parts = node.items.map((item) => literalText(item, caseless));
      return parts.every((p) => p !== null) ? parts.join('') : null;
    }
    default:
      return null;
  }
}
