/**
 * The manifest's symbol counts after an index run: the new segment's, plus the live docs of the
 * segments kept from before (their status columns, less tombstoned docs).
 */
import { join } from 'node:path';
import { segmentsDir } from '../index/lmdb/catalog.js';
import { openSegmentReader } from '../index/lmdb/segment-reader.js';
import type { SegmentRef, SymbolCounts } from '../index/manifest.js';
import { addCounts, countSymbols } from './segment-symbols.js';

/** `{symbols}` for the manifest, or nothing when some live segment has no symbol tables. */
export function symbolCountsOf(dataDir: string, kept: readonly SegmentRef[], built: SymbolCounts | null | undefined): { symbols?: SymbolCounts } {
  if (built === null) return {};
  let total = built ?? countSymbols(null);
  for (const segment of kept) {
    if (segment.deleted.length >= segment.docCount) continue;
    const reader = openSegmentReader(join(segmentsDir(dataDir), segment.id));
    try {
      const status = reader.symbolStatus();
      if (!status) return {};
      total = addCounts(total, countSymbols(status, new Set(segment.deleted)));
    } finally {
      void reader.close();
    }
  }
  return { symbols: total };
}
