/**
 * Sorted doc id sets for candidate selection. `null` stands for "every document in range", so
 * queries without usable trigrams never materialise the full set.
 */

export type DocSet = Uint32Array | null;

export function intersect(a: DocSet, b: DocSet): DocSet {
  if (a === null) return b;
  if (b === null) return a;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Uint32Array(small.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length && j < large.length; i++) {
    const v = small[i]!;
    j = gallop(large, j, v);
    if (j < large.length && large[j] === v) out[n++] = v;
  }
  return out.subarray(0, n);
}

export function union(a: DocSet, b: DocSet): DocSet {
  if (a === null || b === null) return null;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) { out[n++] = x; i++; }
    else if (y < x) { out[n++] = y; j++; }
    else { out[n++] = x; i++; j++; }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}

/** The first index whose value is ≥ value in an ascending list. */
export function lowerBound(ids: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether an ascending list holds the value, by binary search. */
export function includesSorted(ids: ArrayLike<number>, value: number): boolean {
  const at = lowerBound(ids, value);
  return at < ids.length && ids[at] === value;
}

/** First index ≥ from whose value is ≥ v, by exponential then binary search. */
function gallop(ids: Uint32Array, from: number, v: number): number {
  let step = 1;
  let hi = from;
  while (hi < ids.length && ids[hi]! < v) {
    from = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, ids.length);
  while (from < hi) {
    const mid = (from + hi) >>> 1;
    if (ids[mid]! < v) from = mid + 1;
    else hi = mid;
  }
  return from;
}

/** Calls `visit` for each doc of the set (or of [lo, hi) when null), skipping `deleted` ids. */
export function forEachDoc(set: DocSet, lo: number, hi: number, deleted: ReadonlySet<number>, visit: (doc: number) => boolean): void {
  if (set === null) {
    for (let d = lo; d < hi; d++) if (!deleted.has(d) && !visit(d)) return;
    return;
  }
  for (const d of set) if (!deleted.has(d) && !visit(d)) return;
}
