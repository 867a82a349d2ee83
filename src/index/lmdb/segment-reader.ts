/**
 * Reads one segment (format.ts) for the shard searcher: columns load once per open, posting
 * blocks and contents are fetched per call with lmdb's reusable buffers. A damaged segment is
 * refused (INDEX_CORRUPT) before any file is mapped, or at the first read that finds it.
 */
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { open, type Database, type RootDatabase } from 'lmdb';
import { createError } from '../../errors.js';
import {
  COL_BLOBS, COL_CRC_BLOCKS, COL_CRC_CONTENT, COL_DICT_LOC, COL_DICT_TRI, COL_FLAGS, COL_INFO, COL_PATHS, COL_SIZES, COL_SYMBOL_STATUS,
  CONTENT_FILE, DB_BLOCK_MAPS, DB_SYMBOL_DEFS, DB_SYMBOL_IMPORTS, DB_SYMBOL_REFS, DB_SYMBOLS, FORMAT_VERSION, META_FILE, type SegmentInfo,
} from '../format.js';
import { Reader } from '../../model/varint.js';
import { BLOCK_MAP_HEADER_BYTES, blockMapBitmaps, hasBlockMap } from '../block-map.js';
import { lowerBound } from '../doc-set.js';
import { bitsetIds, decodePostings, keepInBitset, listShape } from '../postings.js';
import type { SegmentSource } from '../store.js';
import { checkColumn, fail, readFailure, readSeal, type Seal } from './segment-seal.js';

export interface SegmentReader extends SegmentSource {
  readonly info: SegmentInfo;
  readonly sizes: Uint32Array;
  blobOid(doc: number): string;
  /** SYMBOLS_* per doc, or null when the segment was built without symbols. */
  symbolStatus(): Uint8Array | null;
  /** The doc's encoded FileSymbols (symbols/codec.ts), or null: valid until the next read, so decode it at once. */
  symbols(doc: number): Uint8Array | null;
  /** The doc's language and imports alone, in the same encoding; valid until the next read. */
  symbolImports(doc: number): Uint8Array | null;
  /** Ascending ids of the docs defining `name` (non-locally). */
  docsDefining(name: string): Uint32Array;
  /** Ascending ids of the docs referencing `name`, with a packReferenceInfo per doc. */
  referencing(name: string): { readonly docs: Uint32Array; readonly info: Uint32Array };
  /** Every name docsDefining answers for, in key order (for name patterns that are not exact). */
  definedNames(): string[];
  close(): Promise<void>;
}

const EMPTY = new Uint32Array(0);

export function openSegmentReader(dir: string): SegmentReader {
  const seal = readSeal(dir);
  const envs: RootDatabase[] = [];
  try {
    return openSealed(dir, seal, envs);
  } catch (err) {
    for (const env of envs) void env.close();
    throw readFailure(dir, err);
  }
}

function openSealed(dir: string, seal: Seal, envs: RootDatabase[]): SegmentReader {
  const metaEnv: RootDatabase = open({ path: join(dir, META_FILE), noSubdir: true, readOnly: true, maxDbs: 4 });
  envs.push(metaEnv);
  const cols: Database<Uint8Array, string> = metaEnv.openDB({ name: 'cols', encoding: 'binary' });
  const blocks: Database<Uint8Array, number> = metaEnv.openDB({ name: 'blocks', encoding: 'binary', keyEncoding: 'uint32' });
  const column = (name: string): Uint8Array => {
    // getBinary returns a copy the reader owns, valid after the transaction moves on.
    const bytes = cols.getBinary(name);
    if (!bytes) fail(dir, `column ${name} is missing`);
    checkColumn(dir, seal, name, bytes);
    return bytes;
  };
  const info = JSON.parse(Buffer.from(column(COL_INFO)).toString('utf8')) as SegmentInfo;
  if (info.formatVersion !== FORMAT_VERSION) {
    throw createError('INDEX_FORMAT', `index segment ${basename(dir)} has format ${info.formatVersion}, this Quarry reads ${FORMAT_VERSION}; re-index`);
  }
  const pathBytes = column(COL_PATHS);
  const pathIndex = { bytes: pathBytes, starts: pathStarts(pathBytes, info.docCount) };
  const blobs = column(COL_BLOBS);
  const sizes = u32(column(COL_SIZES));
  const flags = column(COL_FLAGS);
  const dictTri = u32(column(COL_DICT_TRI));
  const dictLoc = u32(column(COL_DICT_LOC));
  const blockCrcs = u32(column(COL_CRC_BLOCKS));
  const contentCrcs = u32(column(COL_CRC_CONTENT));
  if (sizes.length !== info.docCount || contentCrcs.length !== info.docCount || blockCrcs.length !== info.blockCount) {
    fail(dir, 'column lengths disagree with the segment info');
  }
  const contentEnv: RootDatabase = open({ path: join(dir, CONTENT_FILE), noSubdir: true, readOnly: true, maxDbs: 4 });
  envs.push(contentEnv);
  const content: Database<Uint8Array, number> = contentEnv.openDB({ name: 'content', encoding: 'binary', keyEncoding: 'uint32' });
  const symbolStatus = COL_SYMBOL_STATUS in seal.columns ? column(COL_SYMBOL_STATUS) : null;
  const optionalDb = (env: RootDatabase, name: string, keyEncoding?: 'uint32'): Database<Uint8Array, string | number> | null =>
    symbolStatus ? env.openDB({ name, encoding: 'binary', ...(keyEncoding ? { keyEncoding } : {}) }) : null;
  const symbolDb = optionalDb(contentEnv, DB_SYMBOLS, 'uint32');
  const importsDb = optionalDb(contentEnv, DB_SYMBOL_IMPORTS, 'uint32');
  const defsDb = optionalDb(metaEnv, DB_SYMBOL_DEFS);
  const refsDb = optionalDb(metaEnv, DB_SYMBOL_REFS);
  const blockMapParams = info.blockMap;
  const blockMapDb = blockMapParams ? contentEnv.openDB({ name: DB_BLOCK_MAPS, encoding: 'binary', keyEncoding: 'uint32' }) : null;
  const nameValue = (db: Database<Uint8Array, string | number> | null, name: string): Uint8Array | undefined =>
    (!db || name.length === 0 || Buffer.byteLength(name) > 500 ? undefined : db.getBinaryFast(name));
  const view = (bytes: Uint8Array | undefined): Uint8Array | null =>
    // lmdb's reusable buffer reports the value's length but spans its whole allocation.
    (bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : null);
  // Each block and doc is checked against its CRC once per open reader: later reads cost nothing.
  const checked = { blocks: new Uint8Array(info.blockCount), docs: new Uint8Array(info.docCount), maps: new Uint8Array(info.docCount) };
  const verified = (bytes: Uint8Array, crcs: Uint32Array, seen: Uint8Array, i: number, what: string): Uint8Array => {
    if (seen[i] === 1) return bytes;
    if (crc32(bytes) !== crcs[i]) fail(dir, `${what} fails its checksum`);
    seen[i] = 1;
    return bytes;
  };
  const read = <T>(get: () => T): T => {
    try {
      return get();
    } catch (err) {
      throw readFailure(dir, err);
    }
  };
  // One Buffer over the column: a path is then one decode, no view per call.
  const pathText = Buffer.from(pathBytes.buffer, pathBytes.byteOffset, pathBytes.byteLength);
  let scratch = new Uint32Array(1024);
  /** The block holding the trigram's list (lmdb's reusable buffer: use it before the next read) and where the list is. */
  const locate = (trigram: number): { block: Uint8Array; start: number; length: number; bitset: boolean } | null => {
    const slot = findTrigram(dictTri, trigram);
    if (slot < 0) return null;
    const blockNo = dictLoc[slot * 3]!;
    const block = read(() => blocks.getBinaryFast(blockNo));
    if (!block || blockNo >= info.blockCount) fail(dir, `posting block ${blockNo} is missing`);
    verified(view(block)!, blockCrcs, checked.blocks, blockNo, `posting block ${blockNo}`);
    const { bytes, bitset } = listShape(dictLoc[slot * 3 + 2]!);
    return { block, start: dictLoc[slot * 3 + 1]!, length: bytes, bitset };
  };

  return {
    info,
    docCount: info.docCount,
    pathIndex,
    sizes,
    path: (doc) => pathText.toString('utf8', pathIndex.starts[doc]!, pathIndex.starts[doc + 1]! - 1),
    flags: (doc) => flags[doc]!,
    blobOid: (doc) => Buffer.from(blobs.subarray(doc * 20, doc * 20 + 20)).toString('hex'),
    content(doc) {
      const bytes = read(() => view(content.getBinaryFast(doc)));
      if (!bytes) fail(dir, `content of doc ${doc} is missing`);
      return verified(bytes, contentCrcs, checked.docs, doc, `content of doc ${doc}`);
    },
    ...(blockMapParams ? { blockMapParams } : {}),
    blockMap(doc) {
      if (!blockMapParams || !blockMapDb || !hasBlockMap(sizes[doc]!, blockMapParams)) return null;
      const stored = read(() => view(blockMapDb.getBinaryFast(doc)));
      if (!stored) fail(dir, `block map of doc ${doc} is missing`);
      if (checked.maps[doc] === 1) return stored.subarray(BLOCK_MAP_HEADER_BYTES);
      const bitmaps = blockMapBitmaps(stored, sizes[doc]!, blockMapParams);
      if (!bitmaps) fail(dir, `block map of doc ${doc} fails its checksum`);
      checked.maps[doc] = 1;
      return bitmaps;
    },
    symbolStatus: () => symbolStatus,
    symbols: (doc) => view(symbolDb?.getBinaryFast(doc)),
    symbolImports: (doc) => view(importsDb?.getBinaryFast(doc)),
    docsDefining(name) {
      const bytes = nameValue(defsDb, name);
      return bytes ? decodePostings(bytes, 0, bytes.length) : EMPTY;
    },
    referencing(name) {
      const bytes = nameValue(refsDb, name);
      if (!bytes) return { docs: EMPTY, info: EMPTY };
      const r = new Reader(bytes);
      const length = r.uint();
      const docs = decodePostings(bytes, r.pos, r.pos + length);
      r.pos += length;
      const info = new Uint32Array(docs.length);
      for (let i = 0; i < info.length; i++) info[i] = r.uint();
      return { docs, info };
    },
    definedNames: () => (defsDb ? [...defsDb.getKeys()].map(String) : []),
    postings(trigram, lo, hi) {
      const list = locate(trigram);
      if (!list) return EMPTY;
      if (list.bitset) return bitsetIds(list.block, list.start, list.length, lo, hi);
      const ids = decodePostings(list.block, list.start, list.start + list.length, scratch);
      if (ids.buffer !== scratch.buffer) scratch = new Uint32Array(ids.buffer as ArrayBuffer);
      return clip(ids, lo, hi);
    },
    postingShape(trigram) {
      const slot = findTrigram(dictTri, trigram);
      return slot < 0 ? null : listShape(dictLoc[slot * 3 + 2]!);
    },
    keepWithTrigram(trigram, ids) {
      const list = locate(trigram);
      if (!list) return EMPTY;
      return list.bitset ? keepInBitset(ids, list.block, list.start, list.length) : null;
    },
    async close() {
      await Promise.all([metaEnv.close(), contentEnv.close()]);
    },
  };
}

/** Copies the ids in [lo, hi) out of the reusable decode buffer. */
function clip(ids: Uint32Array, lo: number, hi: number): Uint32Array {
  let a = 0;
  let b = ids.length;
  if (lo > 0) a = lowerBound(ids, lo);
  if (hi < 0xffffffff) b = lowerBound(ids, hi);
  return ids.slice(a, b);
}


function findTrigram(dict: Uint32Array, trigram: number): number {
  const i = lowerBound(dict, trigram);
  return i < dict.length && dict[i] === trigram ? i : -1;
}

function pathStarts(bytes: Uint8Array, docCount: number): Uint32Array {
  const starts = new Uint32Array(docCount + 1);
  let doc = 1;
  for (let i = 0; i < bytes.length && doc < docCount; i++) if (bytes[i] === 10) starts[doc++] = i + 1;
  starts[docCount] = bytes.length + 1;
  return starts;
}

function u32(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}
