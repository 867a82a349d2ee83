/**
 * Marks, in the segments a repository keeps, the documents whose paths a new commit modified or
 * deleted. Reads only each segment's path and size columns.
 */
import { join } from 'node:path';
import { segmentsDir } from '../index/lmdb/catalog.js';
import { openSegmentReader } from '../index/lmdb/segment-reader.js';
import type { SegmentRef } from '../index/manifest.js';

export interface Tombstoned {
  readonly keep: SegmentRef[];
  readonly bytesRemoved: number;
}

export function tombstones(dataDir: string, segments: readonly SegmentRef[], replaced: ReadonlySet<string>): Tombstoned {
  let bytesRemoved = 0;
  const keep = segments.map((segment) => {
    if (replaced.size === 0) return segment;
    const reader = openSegmentReader(join(segmentsDir(dataDir), segment.id));
    const already = new Set(segment.deleted);
    const deleted = [...segment.deleted];
    for (let doc = 0; doc < reader.docCount; doc++) {
      if (already.has(doc) || !replaced.has(reader.path(doc))) continue;
      deleted.push(doc);
      bytesRemoved += reader.sizes[doc]!;
    }
    void reader.close();
    return { ...segment, deleted: deleted.sort((a, b) => a - b) };
  });
  return { keep, bytesRemoved };
}
