/**
 * Writes one segment aside (format.ts): contents as they arrive, then columns and postings at the
 * end. Nothing points at a segment until the catalog swaps a manifest to it, so an interrupted
 * write leaves only an orphan directory, removed by the next index run.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import {
  COL_BLOBS, COL_DICT_LOC, COL_DICT_TRI, COL_FLAGS, COL_INFO, COL_PATHS, COL_SIZES, COL_SYMBOL_STATUS,
  CONTENT_FILE, DB_SYMBOL_DEFS, DB_SYMBOL_IMPORTS, DB_SYMBOL_REFS, DB_SYMBOLS, FORMAT_VERSION, META_FILE, type SegmentInfo,
} from '../format.js';
import { Writer } from '../varint.js';
import { encodePostings } from '../postings.js';
import type { MergedPostings } from '../build/merge.js';
import type { SegmentDocs } from '../store.js';

/** Content bytes queued for writing before addDocument waits for the writer thread. */
const MAX_PENDING_BYTES = 128 * 1024 * 1024;
/** LMDB's key limit is 511 bytes; longer identifiers are not worth indexing by name. */
const MAX_KEY_BYTES = 500;

/** A segment's symbol tables (format.ts): status per doc and the two name indexes, doc ids ascending. */
export interface SegmentSymbols {
  readonly status: Uint8Array;
  readonly defined: ReadonlyMap<string, readonly number[]>;
  /** Per name, the referencing docs and a packReferenceInfo for each. */
  readonly referenced: ReadonlyMap<string, { readonly docs: readonly number[]; readonly info: readonly number[] }>;
}

export interface SegmentWriter {
  readonly dir: string;
  addDocument(doc: number, content: Uint8Array): Promise<void>;
  /** The encoded FileSymbols of a doc, and of its language and imports alone (any order, at most once per doc). */
  addSymbols(doc: number, encoded: Uint8Array, imports: Uint8Array): void;
  finish(docs: SegmentDocs, postings: MergedPostings, symbols?: SegmentSymbols | null): Promise<SegmentInfo>;
  abort(): Promise<void>;
}

export function createSegmentWriter(dir: string): SegmentWriter {
  mkdirSync(dir, { recursive: true });
  const contentEnv = open({ path: join(dir, CONTENT_FILE), noSubdir: true, maxDbs: 3, noMemInit: true });
  const content = contentEnv.openDB({ name: 'content', encoding: 'binary', keyEncoding: 'uint32' });
  const symbolDb = contentEnv.openDB({ name: DB_SYMBOLS, encoding: 'binary', keyEncoding: 'uint32' });
  const importsDb = contentEnv.openDB({ name: DB_SYMBOL_IMPORTS, encoding: 'binary', keyEncoding: 'uint32' });
  let pendingBytes = 0;
  let pending: Promise<unknown> = Promise.resolve();

  return {
    dir,
    async addDocument(doc, bytes) {
      pending = content.put(doc, bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= MAX_PENDING_BYTES) {
        await pending;
        pendingBytes = 0;
      }
    },
    addSymbols(doc, encoded, imports) {
      void symbolDb.put(doc, encoded);
      pending = importsDb.put(doc, imports);
    },
    async finish(docs, postings, symbols = null) {
      await pending;
      await contentEnv.close();
      return writeMeta(dir, docs, postings, symbols);
    },
    async abort() {
      await pending.catch(() => undefined);
      await contentEnv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function writeMeta(dir: string, docs: SegmentDocs, postings: MergedPostings, symbols: SegmentSymbols | null): Promise<SegmentInfo> {
  const env: RootDatabase = open({ path: join(dir, META_FILE), noSubdir: true, maxDbs: 4, noMemInit: true });
  const cols: Database<Uint8Array, string> = env.openDB({ name: 'cols', encoding: 'binary' });
  const blocks: Database<Uint8Array, number> = env.openDB({ name: 'blocks', encoding: 'binary', keyEncoding: 'uint32' });
  const info: SegmentInfo = {
    formatVersion: FORMAT_VERSION,
    docCount: docs.paths.length,
    trigramCount: postings.trigrams.length,
    blockCount: postings.blocks.length,
    postingBytes: postings.postingBytes,
  };
  postings.blocks.forEach((block, i) => void blocks.put(i, block));
  void cols.put(COL_PATHS, Buffer.from(docs.paths.join('\n')));
  void cols.put(COL_BLOBS, docs.blobs);
  void cols.put(COL_SIZES, bytesOf(docs.sizes));
  void cols.put(COL_FLAGS, docs.flags);
  void cols.put(COL_DICT_TRI, bytesOf(postings.trigrams));
  void cols.put(COL_DICT_LOC, bytesOf(postings.locations));
  if (symbols) writeSymbolIndexes(env, cols, symbols);
  // info goes last: a reader that finds it knows every other column is there.
  await cols.put(COL_INFO, Buffer.from(JSON.stringify(info)));
  await env.flushed;
  await env.close();
  return info;
}

function writeSymbolIndexes(env: RootDatabase, cols: Database<Uint8Array, string>, symbols: SegmentSymbols): void {
  void cols.put(COL_SYMBOL_STATUS, symbols.status);
  const indexable = (key: string): boolean => key.length > 0 && Buffer.byteLength(key) <= MAX_KEY_BYTES;
  const defs: Database<Uint8Array, string> = env.openDB({ name: DB_SYMBOL_DEFS, encoding: 'binary' });
  for (const [key, ids] of symbols.defined) if (indexable(key)) void defs.put(key, encodePostings(ids));
  const refs: Database<Uint8Array, string> = env.openDB({ name: DB_SYMBOL_REFS, encoding: 'binary' });
  for (const [key, { docs, info }] of symbols.referenced) {
    if (!indexable(key)) continue;
    const value = new Writer();
    value.raw(encodePostings(docs));
    for (const packed of info) value.uint(packed);
    void refs.put(key, value.finish());
  }
}

function bytesOf(view: Uint32Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
