/**
 * Matches patterns against file paths in one scan over a source's joined path column, instead of
 * one regex call per document. Returns, per pattern, the byte ranges hit within each path.
 */
import { isUtf8 } from 'node:buffer';
import type { CompiledMatcher } from '../matcher/matcher.js';
import type { SegmentSource } from '../index/store.js';

/** Per pattern: doc id → [start, end) byte ranges relative to the start of that doc's path. */
export type PathHits = Map<number, number[]>[];

export function matchPaths(matcher: CompiledMatcher, source: SegmentSource, lo: number, hi: number): PathHits {
  const hits: PathHits = Array.from({ length: matcher.patternCount }, () => new Map<number, number[]>());
  if (lo >= hi) return hits;
  const { bytes, starts } = source.pathIndex;
  const base = starts[lo]!;
  const slice = bytes.subarray(base, starts[hi]! - 1);
  const found = matcher.scan(slice, isUtf8(slice));
  let doc = lo;
  for (let i = 0; i < found.count; i++) {
    const pattern = found.data[i * 3]!;
    const start = found.data[i * 3 + 1]! + base;
    const end = found.data[i * 3 + 2]! + base;
    doc = docAt(starts, start, lo, hi);
    const pathStart = starts[doc]!;
    if (end > starts[doc + 1]! - 1) continue;
    const ranges = hits[pattern]!.get(doc);
    if (ranges) ranges.push(start - pathStart, end - pathStart);
    else hits[pattern]!.set(doc, [start - pathStart, end - pathStart]);
  }
  return hits;
}

function docAt(starts: Uint32Array, offset: number, lo: number, hi: number): number {
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Ascending doc ids that have at least one hit for `pattern`. */
export function docsWithHits(hits: PathHits, pattern: number): Uint32Array {
  return Uint32Array.from(hits[pattern]!.keys()).sort();
}
