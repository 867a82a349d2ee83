/**
 * Gathers the results of a segment's symbols batches, in doc order: encodings go straight to
 * the symbols writer, names into the segment's name indexes, statuses into counts.
 */
import { SYMBOLS_FAILED, SYMBOLS_OK, SYMBOLS_SKIPPED, SYMBOLS_UNSUPPORTED } from '../index/format.js';
import type { SegmentSymbolsWriter } from '../index/lmdb/segment-symbols-writer.js';
import type { SegmentSymbols } from '../index/lmdb/segment-writer.js';
import type { SymbolCounts } from '../index/manifest.js';
import type { SymbolBatch } from '../pool/messages.js';

export class SegmentSymbolsBuilder {
  private readonly status: number[] = [];
  private readonly defined = new Map<string, number[]>();
  private readonly referenced = new Map<string, { docs: number[]; info: number[] }>();

  constructor(private readonly writer: Pick<SegmentSymbolsWriter, 'addSymbols'>) {}

  /** Batches must arrive in doc order so each name's doc list stays ascending. */
  add(firstDoc: number, batch: SymbolBatch): void {
    let start = 0;
    let importStart = 0;
    let info = 0;
    batch.ends.forEach((end, i) => {
      const doc = firstDoc + i;
      this.status[doc] = batch.status[i]!;
      if (end > start) this.writer.addSymbols(doc, batch.data.slice(start, end), batch.importData.slice(importStart, batch.importEnds[i]!));
      start = end;
      importStart = batch.importEnds[i]!;
      addNames(this.defined, batch.defined[i]!, doc);
      for (const name of names(batch.referenced[i]!)) {
        const entry = this.referenced.get(name);
        if (entry) {
          entry.docs.push(doc);
          entry.info.push(batch.referenceInfo[info++]!);
        } else this.referenced.set(name, { docs: [doc], info: [batch.referenceInfo[info++]!] });
      }
    });
  }

  finish(docCount: number): SegmentSymbols {
    const status = new Uint8Array(docCount);
    this.status.forEach((s, doc) => (status[doc] = s));
    return { status, defined: this.defined, referenced: this.referenced };
  }
}

function names(joined: string): string[] {
  return joined.length === 0 ? [] : joined.split('\n');
}

function addNames(index: Map<string, number[]>, joined: string, doc: number): void {
  for (const name of names(joined)) {
    const docs = index.get(name);
    if (docs) docs.push(doc);
    else index.set(name, [doc]);
  }
}

/** Counts of a status column, skipping the docs in `deleted`. */
export function countSymbols(status: Uint8Array | null, deleted: ReadonlySet<number> = new Set()): SymbolCounts {
  const counts = { files: 0, unsupported: 0, skipped: 0, failed: 0 };
  if (!status) return counts;
  status.forEach((s, doc) => {
    if (deleted.has(doc)) return;
    if (s === SYMBOLS_OK) counts.files++;
    else if (s === SYMBOLS_UNSUPPORTED) counts.unsupported++;
    else if (s === SYMBOLS_SKIPPED) counts.skipped++;
    else if (s === SYMBOLS_FAILED) counts.failed++;
  });
  return counts;
}

export function addCounts(a: SymbolCounts, b: SymbolCounts): SymbolCounts {
  return { files: a.files + b.files, unsupported: a.unsupported + b.unsupported, skipped: a.skipped + b.skipped, failed: a.failed + b.failed };
}
