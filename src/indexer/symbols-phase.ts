/**
 * The second phase of an index run: symbol tables for the live segments built without them (the
 * text phase publishes those first, so search works meanwhile). Each segment's documents go to the
 * index workers in small batches, beside searches in the pool's fair queue; the segment is then
 * replaced in the manifest by a copy with tables, one segment at a time. Runs under the index lock.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { includesSorted } from '../index/doc-set.js';
import { COL_SYMBOL_STATUS } from '../index/format.js';
import { segmentsDir } from '../index/lmdb/catalog.js';
import { openSegmentReader, type SegmentReader } from '../index/lmdb/segment-reader.js';
import { createSegmentSymbolsWriter } from '../index/lmdb/segment-symbols-writer.js';
import { readSeal } from '../index/lmdb/segment-seal.js';
import type { Manifest, SegmentRef } from '../index/manifest.js';
import type { SymbolBatch } from '../pool/messages.js';
import type { IndexContext, IndexTarget } from './index-target.js';
import { PhaseMeter, type ProgressListener } from './index-progress.js';
import { SegmentSymbolsBuilder } from './segment-symbols.js';
import { symbolCountsOf } from './symbol-counts.js';

/** Parsing costs far more per byte than trigrams: small batches keep every thread busy and let searches in between. */
const BATCH_BYTES = 1024 * 1024;
/** Batches running or queued per pool thread. */
const IN_FLIGHT_PER_THREAD = 2;

export function hasSymbolTables(dataDir: string, segment: SegmentRef): boolean {
  return COL_SYMBOL_STATUS in readSeal(join(segmentsDir(dataDir), segment.id)).columns;
}

/** The live segments still without symbol tables. */
export function segmentsWithoutSymbols(dataDir: string, segments: readonly SegmentRef[]): SegmentRef[] {
  return segments.filter((s) => !hasSymbolTables(dataDir, s));
}

/** Adds symbol tables to every live segment lacking them, publishing each; returns the final manifest. */
export async function extractSymbols(ctx: IndexContext, target: IndexTarget, listener?: ProgressListener): Promise<Manifest | undefined> {
  let manifest = ctx.catalog.get(target.name);
  if (!manifest) return undefined;
  const pending = segmentsWithoutSymbols(ctx.dataDir, manifest.segments);
  const meter = listener ? new PhaseMeter('symbols', 'files', pending.reduce((n, s) => n + s.docCount - s.deleted.length, 0), listener) : null;
  const counter = { done: 0, bytes: 0 };
  for (const segment of pending) {
    const id = await withSymbols(ctx, target, segment, (docs, bytes) => {
      counter.done += docs;
      counter.bytes += bytes;
      meter?.update(counter.done, counter.bytes);
    });
    manifest = ctx.catalog.get(target.name)!;
    const segments = manifest.segments.map((s) => (s.id === segment.id ? { ...s, id } : s));
    const done = segments.every((s) => s.id === id || hasSymbolTables(ctx.dataDir, s));
    const { symbolsPending: _, symbols: __, ...rest } = manifest;
    manifest = done
      ? { ...rest, segments, ...symbolCountsOf(ctx.dataDir, segments, undefined) }
      : { ...rest, segments, symbolsPending: true };
    await ctx.catalog.put(manifest);
  }
  if (pending.length === 0 && manifest.symbolsPending) {
    const { symbolsPending: _, ...rest } = manifest;
    manifest = { ...rest, ...symbolCountsOf(ctx.dataDir, manifest.segments, undefined) };
    await ctx.catalog.put(manifest);
  }
  meter?.finish();
  return manifest;
}

/** Writes a copy of `segment` with symbol tables; returns the copy's id. */
async function withSymbols(ctx: IndexContext, target: IndexTarget, segment: SegmentRef, progress: (docs: number, bytes: number) => void): Promise<string> {
  const from = join(segmentsDir(ctx.dataDir), segment.id);
  const id = `${target.id}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const reader = openSegmentReader(from);
  const writer = createSegmentSymbolsWriter(from, join(segmentsDir(ctx.dataDir), id));
  try {
    const builder = new SegmentSymbolsBuilder(writer);
    const inFlight: { readonly firstDoc: number; readonly docs: number; readonly bytes: number; readonly result: Promise<SymbolBatch> }[] = [];
    const takeOldest = async (): Promise<void> => {
      const oldest = inFlight.shift()!;
      builder.add(oldest.firstDoc, await oldest.result);
      progress(oldest.docs, oldest.bytes);
    };
    for (const batch of batchesOf(reader, segment.deleted)) {
      // The task's arrays move to the worker: their sizes are taken first.
      const sizes = { docs: batch.task.paths.length, bytes: batch.task.data.length };
      inFlight.push({ firstDoc: batch.firstDoc, ...sizes, result: ctx.pool.submit('symbols-batch', batch.task) });
      if (inFlight.length >= ctx.pool.threads * IN_FLIGHT_PER_THREAD) await takeOldest();
    }
    while (inFlight.length > 0) await takeOldest();
    await writer.finish(builder.finish(reader.docCount));
    return id;
  } catch (err) {
    await writer.abort();
    throw err;
  } finally {
    await reader.close();
  }
}

/** Runs of consecutive live docs, cut at about BATCH_BYTES (a replaced doc ends a run: its tables are never read). */
function* batchesOf(reader: SegmentReader, deleted: readonly number[]) {
  let docs: Uint8Array[] = [];
  let paths: string[] = [];
  let firstDoc = 0;
  let bytes = 0;
  const cut = () => {
    const data = new Uint8Array(bytes);
    const ends = new Uint32Array(docs.length);
    let pos = 0;
    docs.forEach((d, i) => {
      data.set(d, pos);
      pos += d.length;
      ends[i] = pos;
    });
    const batch = { firstDoc, task: { data, ends, paths } };
    docs = [];
    paths = [];
    bytes = 0;
    return batch;
  };
  for (let doc = 0; doc < reader.docCount; doc++) {
    if (includesSorted(deleted, doc)) {
      if (docs.length > 0) yield cut();
      continue;
    }
    if (docs.length === 0) firstDoc = doc;
    // The reader's buffer is reused by its next read: the batch keeps a copy.
    docs.push(reader.content(doc).slice());
    paths.push(reader.path(doc));
    bytes += docs[docs.length - 1]!.length;
    if (bytes >= BATCH_BYTES) yield cut();
  }
  if (docs.length > 0) yield cut();
}
