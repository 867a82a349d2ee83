/**
 * Sets of Unicode code points as sorted, disjoint, non-adjacent ranges `[lo0, hi0, lo1, hi1, …]`.
 * Immutable values; every function returns a normalized set.
 */

export type RangeSet = readonly number[];

const MAX_CODE_POINT = 0x10ffff;
export const ALL_CODE_POINTS: RangeSet = Object.freeze([0, MAX_CODE_POINT]);

/** Builds a normalized set from possibly overlapping, unordered `[lo, hi]` pairs. */
export function rangeSet(pairs: readonly (readonly [number, number])[]): RangeSet {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of sorted) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) {
      out[last] = Math.max(out[last] as number, hi);
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

export function singleton(cp: number): RangeSet {
  return [cp, cp];
}

export function pairsOf(set: RangeSet): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < set.length; i += 2) pairs.push([set[i] as number, set[i + 1] as number]);
  return pairs;
}

export function union(a: RangeSet, b: RangeSet): RangeSet {
  return rangeSet([...pairsOf(a), ...pairsOf(b)]);
}

/** The members of `set` that are ASCII (U+0000–U+007F). */
export function asciiPart(set: RangeSet): RangeSet {
  const out: number[] = [];
  for (let i = 0; i < set.length && (set[i] as number) <= 0x7f; i += 2) out.push(set[i] as number, Math.min(set[i + 1] as number, 0x7f));
  return out;
}

export function complement(set: RangeSet): RangeSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (set[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

export function contains(set: RangeSet, cp: number): boolean {
  let lo = 0;
  let hi = set.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (set[2 * mid] as number)) hi = mid - 1;
    else if (cp > (set[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The number of code points in the set. */
export function sizeOf(set: RangeSet): number {
  let n = 0;
  for (let i = 0; i < set.length; i += 2) n += (set[i + 1] as number) - (set[i] as number) + 1;
  return n;
}

export function sameSet(a: RangeSet, b: RangeSet): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The highest code point in a non-empty set, or -1. */
export function maxOf(set: RangeSet): number {
  return set.length === 0 ? -1 : (set[set.length - 1] as number);
}

export function codePointsOf(set: RangeSet): number[] {
  const out: number[] = [];
  for (let i = 0; i < set.length; i += 2) {
    for (let cp = set[i] as number; cp <= (set[i + 1] as number); cp++) out.push(cp);
  }
  return out;
}
