/**
 * Splits a repository's segments into shard tasks: big segments become several doc ranges so all
 * threads work on one repository; tombstoned docs travel with the range that holds them.
 */
import type { Manifest } from '../index/manifest.js';

export interface SegmentRange {
  readonly segmentId: string;
  readonly lo: number;
  readonly hi: number;
  readonly deleted: readonly number[];
}

/** Below this many documents a segment is searched as one task. */
const MIN_DOCS_PER_TASK = 2048;

export function segmentRanges(manifest: Manifest, threads: number): SegmentRange[] {
  const out: SegmentRange[] = [];
  for (const segment of manifest.segments) {
    const live = segment.docCount - segment.deleted.length;
    if (live <= 0) continue;
    const parts = Math.max(1, Math.min(threads * 2, Math.floor(segment.docCount / MIN_DOCS_PER_TASK)));
    const step = Math.ceil(segment.docCount / parts);
    for (let lo = 0; lo < segment.docCount; lo += step) {
      const hi = Math.min(segment.docCount, lo + step);
      out.push({ segmentId: segment.id, lo, hi, deleted: segment.deleted.filter((d) => d >= lo && d < hi) });
    }
  }
  return out;
}
