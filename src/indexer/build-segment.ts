/**
 * Builds one segment from a list of tree entries: blobs stream in from `git cat-file --batch`,
 * text files get doc ids and are written as they arrive, batches go to index workers for
 * trigrams, and the runs are merged into posting lists at the end.
 */
import type { TreeEntry } from '../git/tree.js';
import type { BlobReader } from '../git/blobs.js';
import { readAhead } from '../git/read-ahead.js';
import { docFlags, isBinary, type SegmentInfo } from '../index/format.js';
import { mergeRuns } from '../index/build/merge.js';
import type { PostingRun } from '../index/build/run.js';
import { createSegmentWriter } from '../index/lmdb/segment-writer.js';
import type { SkippedFile } from '../index/manifest.js';
import type { WorkerPool } from '../pool/piscina-pool.js';

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

export async function buildSegment(dir: string, entries: readonly TreeEntry[], blobs: BlobReader, pool: WorkerPool, options: BuildOptions): Promise<BuiltSegment> {
  const writer = createSegmentWriter(dir);
  try {
    const batches = new BatchQueue(pool);
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

/** Groups documents into batches for the index workers, with at most 2 batches per thread queued. */
class BatchQueue {
  private docs: Uint8Array[] = [];
  private firstDoc = 0;
  private bytes = 0;
  private readonly inFlight: Promise<PostingRun>[] = [];
  private readonly done: PostingRun[] = [];

  constructor(private readonly pool: WorkerPool) {}

  async add(doc: number, content: Uint8Array): Promise<void> {
    if (this.docs.length === 0) this.firstDoc = doc;
    this.docs.push(content);
    this.bytes += content.length;
    if (this.bytes >= BATCH_BYTES) await this.submit();
  }

  async finish(): Promise<PostingRun[]> {
    if (this.docs.length > 0) await this.submit();
    this.done.push(...(await Promise.all(this.inFlight)));
    return this.done;
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
    this.inFlight.push(this.pool.runIndexBatch({ kind: 'index-batch', firstDoc: this.firstDoc, data, ends }));
    this.docs = [];
    this.bytes = 0;
    if (this.inFlight.length >= this.pool.threads * 2) this.done.push(await this.inFlight.shift()!);
  }
}
