/**
 * Builds one text segment from a list of tree entries: blobs stream in from `git cat-file --batch`,
 * text files get doc ids and are written as they arrive, batches go to index workers for
 * trigrams, and the runs are merged into posting lists at the end. Symbol tables are added
 * afterwards, by the symbols phase (symbols-phase.ts).
 */
import { dirname } from 'node:path';
import type { TreeEntry } from '../git/tree.js';
import type { BlobReader } from '../git/blobs.js';
import { readAhead } from '../git/read-ahead.js';
import { docFlags, type SegmentInfo } from '../index/format.js';
import { mergeRuns } from '../index/build/merge.js';
import type { PostingRun } from '../index/build/run.js';
import { lmdbBytes, requireSpace } from '../index/lmdb/disk-space.js';
import { createSegmentWriter, type SegmentWriter } from '../index/lmdb/segment-writer.js';
import { forEachBlockMap } from '../index/block-map.js';
import type { SkippedFile } from '../index/manifest.js';
import { isBinary } from '../model/binary.js';
import type { IndexBatchResult } from '../pool/messages.js';
import type { EnginePool } from '../pool/pool.js';

export interface BuildOptions {
  readonly maxFileSize: number;
  readonly onProgress?: (done: number, total: number, bytes: number) => void;
}

export interface BuiltSegment {
  readonly info: SegmentInfo;
  readonly paths: string[];
  readonly skipped: SkippedFile[];
  readonly bytes: number;
}

const BATCH_BYTES = 16 * 1024 * 1024;
/** Finished batches waiting behind a slow one are held, up to this many per thread. */
const HELD_PER_THREAD = 8;

export async function buildSegment(dir: string, entries: readonly TreeEntry[], blobs: BlobReader, pool: EnginePool, options: BuildOptions): Promise<BuiltSegment> {
  // File contents alone are a floor for the segment's size: refuse at once when even they cannot fit.
  const contentBytes = entries.reduce((n, e) => n + (e.size > options.maxFileSize ? 0 : lmdbBytes(e.size)), 0);
  requireSpace(dirname(dir), contentBytes, 'the new index segment');
  const writer = createSegmentWriter(dir);
  try {
    const batches = new BatchQueue(pool, writer);
    const docs = { paths: [] as string[], oids: [] as string[], sizes: [] as number[], flags: [] as number[] };
    const skipped: SkippedFile[] = [];
    let bytes = 0;
    const reads = readAhead(blobs, entries.map((e) => (e.size > options.maxFileSize ? null : e.blobOid)));
    let i = 0;
    for await (const content of reads) {
      const entry = entries[i++]!;
      options.onProgress?.(i, entries.length, bytes);
      if (content === null) {
        skipped.push({ path: entry.path, reason: 'too-large', size: entry.size });
        continue;
      }
      if (isBinary(content)) {
        skipped.push({ path: entry.path, reason: 'binary', size: content.length });
        continue;
      }
      const doc = docs.paths.length;
      docs.paths.push(entry.path);
      docs.oids.push(entry.blobOid);
      docs.sizes.push(content.length);
      docs.flags.push(docFlags(content));
      bytes += content.length;
      await writer.addDocument(doc, content);
      await batches.add(doc, content);
    }
    const runs = await batches.finish();
    const info = await writer.finish({
      paths: docs.paths,
      blobs: Buffer.from(docs.oids.join(''), 'hex'),
      sizes: Uint32Array.from(docs.sizes),
      flags: Uint8Array.from(docs.flags),
    }, mergeRuns(runs));
    return { info, paths: docs.paths, skipped, bytes };
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/**
 * Groups documents into batches for the index workers, with at most 2 batches per thread running
 * or queued. Results are taken in submission order.
 */
class BatchQueue {
  private docs: Uint8Array[] = [];
  private firstDoc = 0;
  private bytes = 0;
  private readonly inFlight: { readonly result: Promise<IndexBatchResult>; settled: boolean }[] = [];
  private readonly done: PostingRun[] = [];

  constructor(private readonly pool: EnginePool, private readonly writer: SegmentWriter) {}

  async add(doc: number, content: Uint8Array): Promise<void> {
    if (this.docs.length === 0) this.firstDoc = doc;
    this.docs.push(content);
    this.bytes += content.length;
    if (this.bytes >= BATCH_BYTES) await this.submit();
  }

  async finish(): Promise<PostingRun[]> {
    if (this.docs.length > 0) await this.submit();
    while (this.inFlight.length > 0) await this.takeOldest();
    return this.done;
  }

  private async takeOldest(): Promise<void> {
    const oldest = this.inFlight.shift()!;
    const { run, blockMaps } = await oldest.result;
    this.done.push(run);
    forEachBlockMap(blockMaps, (doc, map) => this.writer.addBlockMap(doc, map));
  }

  private async submit(): Promise<void> {
    const data = new Uint8Array(this.bytes);
    const ends = new Uint32Array(this.docs.length);
    let pos = 0;
    this.docs.forEach((d, i) => {
      data.set(d, pos);
      pos += d.length;
      ends[i] = pos;
    });
    const batch = { result: this.pool.submit('index-batch', { firstDoc: this.firstDoc, data, ends }), settled: false };
    const settle = (): void => {
      batch.settled = true;
    };
    batch.result.then(settle, settle);
    this.inFlight.push(batch);
    this.docs = [];
    this.bytes = 0;
    // Wait for any batch, not the oldest: one slow batch must not leave the other threads idle.
    for (let open = this.open(); open.length >= this.pool.threads * 2; open = this.open()) await Promise.race(open);
    while (this.inFlight[0]?.settled) await this.takeOldest();
    if (this.inFlight.length >= this.pool.threads * HELD_PER_THREAD) await this.takeOldest();
  }

  private open(): Promise<IndexBatchResult>[] {
    return this.inFlight.filter((b) => !b.settled).map((b) => b.result);
  }
}
