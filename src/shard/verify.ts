/**
 * Verification of one candidate document: one scan of its content for every pattern, then the
 * boolean expression over atom results. Returns the byte ranges to show, or null if no match.
 */
import type { CompiledMatcher } from '../matcher/matcher.js';
import type { ExprPlan, ShardPlan } from './plan.js';

export interface AtomHits {
  /** Per atom: whether its content matched, and its content ranges (flattened [start, end)). */
  readonly content: (number[] | null)[];
  /** Per atom: path ranges or null. */
  readonly path: (number[] | null)[];
}

/** Scans `content` once; ranges are grouped by pattern index. */
export function scanContent(matcher: CompiledMatcher, content: Uint8Array, utf8: boolean, patternCount: number): (number[] | null)[] {
  const found = matcher.scan(content, utf8);
  const byPattern: (number[] | null)[] = new Array(patternCount).fill(null);
  for (let i = 0; i < found.count; i++) {
    const p = found.data[i * 3]!;
    (byPattern[p] ??= []).push(found.data[i * 3 + 1]!, found.data[i * 3 + 2]!);
  }
  return byPattern;
}

export function evalExpr(expr: ExprPlan, plan: ShardPlan, hits: AtomHits): boolean {
  switch (expr.op) {
    case 'atom': {
      const atom = plan.atoms[expr.atom]!;
      const matched = (atom.matchContent && hits.content[expr.atom] !== null) || (atom.matchPath && hits.path[expr.atom] !== null);
      return atom.negated ? !matched : matched;
    }
    case 'and':
      return expr.args.every((arg) => evalExpr(arg, plan, hits));
    case 'or':
      return expr.args.some((arg) => evalExpr(arg, plan, hits));
  }
}

/** Flattened [start, end) ranges of the positive atoms, sorted by start. */
export function positiveRanges(plan: ShardPlan, perAtom: readonly (number[] | null)[]): number[] {
  const pairs: [number, number][] = [];
  plan.atoms.forEach((atom, i) => {
    const ranges = perAtom[i];
    if (atom.negated || !ranges) return;
    for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k]!, ranges[k + 1]!]);
  });
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return pairs.flat();
}
