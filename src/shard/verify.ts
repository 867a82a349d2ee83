/**
 * Verification of one candidate document: a cheap "which patterns occur" test, the boolean
 * expression over atoms, and only for documents that match, the scan for exact match ranges.
 */
import type { CompiledMatcher } from '../matcher/matcher.js';
import type { ExprPlan, ShardPlan } from './plan.js';

/** Bit i: pattern i occurs in the content. */
export function contentBits(matcher: CompiledMatcher, content: Uint8Array, utf8: boolean): number {
  const bits = matcher.test(content, utf8);
  if (bits !== -1) return bits;
  const found = matcher.scan(content, utf8);
  let mask = 0;
  for (let i = 0; i < found.count; i++) mask |= 1 << found.data[i * 3]!;
  return mask;
}

/** Scans `content` once; ranges (flattened [start, end)) grouped by pattern index. */
export function scanContent(matcher: CompiledMatcher, content: Uint8Array, utf8: boolean, patternCount: number): (number[] | null)[] {
  const found = matcher.scan(content, utf8);
  const byPattern: (number[] | null)[] = new Array(patternCount).fill(null);
  for (let i = 0; i < found.count; i++) {
    const p = found.data[i * 3]!;
    (byPattern[p] ??= []).push(found.data[i * 3 + 1]!, found.data[i * 3 + 2]!);
  }
  return byPattern;
}

export function evalExpr(expr: ExprPlan, plan: ShardPlan, matched: (atom: number) => boolean): boolean {
  switch (expr.op) {
    case 'atom': {
      const hit = matched(expr.atom);
      return plan.atoms[expr.atom]!.negated ? !hit : hit;
    }
    case 'and':
      return expr.args.every((arg) => evalExpr(arg, plan, matched));
    case 'or':
      return expr.args.some((arg) => evalExpr(arg, plan, matched));
  }
}

/** Flattened [start, end) ranges of the positive atoms, sorted by start. */
export function positiveRanges(plan: ShardPlan, perAtom: readonly (number[] | null)[]): number[] {
  const lists = perAtom.filter((ranges, i): ranges is number[] => ranges !== null && !plan.atoms[i]!.negated);
  if (lists.length <= 1) return lists[0] ?? [];
  const pairs: [number, number][] = [];
  for (const ranges of lists) for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k]!, ranges[k + 1]!]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return pairs.flat();
}
