/**
 * Writes one segment aside (format.ts): contents as they arrive, then columns and postings at the
 * end, then the seal. Nothing points at a segment until the catalog swaps a manifest to it, so an
 * interrupted write leaves only an orphan directory, removed by the next index run. Writes stop
 * with DISK_FULL before the disk is full (disk-space.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { open, type Database, type RootDatabase } from 'lmdb';
import {
  COL_BLOBS, COL_CRC_BLOCKS, COL_CRC_CONTENT, COL_DICT_LOC, COL_DICT_TRI, COL_FLAGS, COL_INFO, COL_PATHS, COL_SIZES,
  CONTENT_FILE, DB_BLOCK_MAPS, FORMAT_VERSION, META_FILE, type SegmentInfo,
} from '../format.js';
import { Writer } from '../../model/varint.js';
import { BLOCK_MAP_PARAMS, hasBlockMap } from '../block-map.js';
import { encodePostings } from '../postings.js';
import type { MergedPostings } from '../build/merge.js';
import type { SegmentDocs } from '../store.js';
import { committedEnd, DiskSpace, lmdbBytes, requireSpace } from './disk-space.js';
import { writeSeal } from './segment-seal.js';
import { WRITABLE, WriteTracker } from './writes.js';

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
  /** A doc's stored block map (block-map.ts encodeBlockMap with BLOCK_MAP_PARAMS), for every doc that has one. */
  addBlockMap(doc: number, map: Uint8Array): void;
  finish(docs: SegmentDocs, postings: MergedPostings): Promise<SegmentInfo>;
  abort(): Promise<void>;
}

export function createSegmentWriter(dir: string): SegmentWriter {
  mkdirSync(dir, { recursive: true });
  const disk = dirname(dir);
  const writes = new WriteTracker(disk, 'writing the new index segment');
  const contentEnv = open({ path: join(dir, CONTENT_FILE), noSubdir: true, maxDbs: 4, noMemInit: true, ...WRITABLE });
  const space = new DiskSpace(disk, join(dir, CONTENT_FILE), 'the new index segment');
  const content = contentEnv.openDB({ name: 'content', encoding: 'binary', keyEncoding: 'uint32' });
  const blockMapDb = contentEnv.openDB({ name: DB_BLOCK_MAPS, encoding: 'binary', keyEncoding: 'uint32' });
  const contentCrcs: number[] = [];
  const mappedDocs = new Set<number>();
  let pendingBytes = 0;
  let contentOpen = true;

  /** Waits for the queued writes, then measures (or reserves) the disk again. */
  const flushAndRequire = async (bytes: number): Promise<void> => {
    await writes.settled();
    pendingBytes = 0;
    space.require(bytes, committedEnd(contentEnv));
  };

  return {
    dir,
    async addDocument(doc, bytes) {
      const cost = lmdbBytes(bytes.length);
      if (!space.fits(cost) || writes.failed) await flushAndRequire(cost);
      contentCrcs[doc] = crc32(bytes);
      writes.track(content.put(doc, bytes));
      space.add(cost);
      pendingBytes += bytes.length;
      if (pendingBytes >= MAX_PENDING_BYTES) await flushAndRequire(0);
    },
    addBlockMap(doc, map) {
      mappedDocs.add(doc);
      space.add(lmdbBytes(map.length));
      writes.track(blockMapDb.put(doc, map));
    },
    async finish(docs, postings) {
      await writes.settled();
      contentOpen = false;
      const end = committedEnd(contentEnv);
      await contentEnv.close();
      space.release(end);
      const crcs = Uint32Array.from(docs.paths, (_, doc) => contentCrcs[doc] ?? 0);
      // A reader trusts the maps only if every doc that should have one has it.
      const mapped = docs.sizes.every((size, doc) => !hasBlockMap(size, BLOCK_MAP_PARAMS) || mappedDocs.has(doc));
      return writeMeta(dir, docs, postings, crcs, mapped);
    },
    async abort() {
      if (contentOpen) {
        contentOpen = false;
        await writes.settled().catch(() => undefined);
        await writes.close(contentEnv);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function writeMeta(
  dir: string, docs: SegmentDocs, postings: MergedPostings, contentCrcs: Uint32Array, blockMapped: boolean,
): Promise<SegmentInfo> {
  const info: SegmentInfo = {
    formatVersion: FORMAT_VERSION,
    docCount: docs.paths.length,
    trigramCount: postings.trigrams.length,
    blockCount: postings.blocks.length,
    postingBytes: postings.postingBytes,
    ...(blockMapped ? { blockMap: BLOCK_MAP_PARAMS } : {}),
  };
  const columns = new Map<string, Uint8Array>([
    [COL_PATHS, Buffer.from(docs.paths.join('\n'))],
    [COL_BLOBS, docs.blobs],
    [COL_SIZES, bytesOf(docs.sizes)],
    [COL_FLAGS, docs.flags],
    [COL_DICT_TRI, bytesOf(postings.trigrams)],
    [COL_DICT_LOC, bytesOf(postings.locations)],
    [COL_CRC_BLOCKS, bytesOf(Uint32Array.from(postings.blocks, (block) => crc32(block)))],
    [COL_CRC_CONTENT, bytesOf(contentCrcs)],
  ]);
  // info goes last: a reader that finds it knows every other column is there.
  columns.set(COL_INFO, Buffer.from(JSON.stringify(info)));
  let needed = 0;
  for (const bytes of [...columns.values(), ...postings.blocks]) needed += lmdbBytes(bytes.length);
  requireSpace(dirname(dir), needed, 'the new index segment\'s postings');

  const writes = new WriteTracker(dirname(dir), 'writing the new index segment');
  const env: RootDatabase = open({ path: join(dir, META_FILE), noSubdir: true, maxDbs: 4, noMemInit: true, ...WRITABLE });
  const space = new DiskSpace(dirname(dir), join(dir, META_FILE), 'the new index segment\'s postings');
  let end = 0;
  try {
    space.require(needed, committedEnd(env));
    const cols: Database<Uint8Array, string> = env.openDB({ name: 'cols', encoding: 'binary' });
    const blocks: Database<Uint8Array, number> = env.openDB({ name: 'blocks', encoding: 'binary', keyEncoding: 'uint32' });
    postings.blocks.forEach((block, i) => writes.track(blocks.put(i, block)));
    for (const [name, bytes] of columns) writes.track(cols.put(name, bytes));
    await writes.settled();
    await writes.track(env.flushed);
    end = committedEnd(env);
  } finally {
    await writes.close(env);
  }
  space.release(end);
  writeSeal(dir, columns);
  return info;
}

/** The symbol name indexes as (key, value) pairs, keys LMDB can hold. */
export function symbolIndexEntries(symbols: SegmentSymbols): { defs: [string, Uint8Array][]; refs: [string, Uint8Array][] } {
  const indexable = (key: string): boolean => key.length > 0 && Buffer.byteLength(key) <= MAX_KEY_BYTES;
  const defs: [string, Uint8Array][] = [];
  for (const [key, ids] of symbols.defined) if (indexable(key)) defs.push([key, encodePostings(ids)]);
  const refs: [string, Uint8Array][] = [];
  for (const [key, { docs, info }] of symbols.referenced) {
    if (!indexable(key)) continue;
    const value = new Writer();
    value.raw(encodePostings(docs));
    for (const packed of info) value.uint(packed);
    refs.push([key, value.finish()]);
  }
  return { defs, refs };
}

function bytesOf(view: Uint32Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
