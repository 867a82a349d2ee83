/**
 * The on-disk index format, in one place. Bump FORMAT_VERSION on any change below; readers refuse
 * other versions with INDEX_FORMAT so a stale index is rebuilt, never misread.
 *
 * data/index/catalog            LMDB: db "manifests": repo name → Manifest (the live segment list)
 * data/index/segments/<id>/     one immutable segment, written aside, referenced only once complete
 *   meta.mdb                    LMDB, db "cols" (string keys → binary columns), db "blocks" (uint32 → posting block)
 *   content.mdb                 LMDB, db "content" (uint32 doc id → raw file bytes)
 *   seal.json                   written last: {formatVersion, files: {name: byte size}, columns: {name: crc32},
 *                               pages: {name: [[first page, count, crc32] of each run of non-overflow pages]}}
 *   damaged                     present once a reader found the segment damaged (its reason, UTF-8)
 *
 * Columns of meta.mdb (all little-endian):
 *   info        JSON {formatVersion, docCount, trigramCount, blockCount, postingBytes, blockMap?}
 *   paths       UTF-8 paths joined by "\n", in doc id order
 *   blobs       docCount × 20 bytes: git blob oid of each doc
 *   sizes       Uint32Array: byte size of each doc
 *   flags       Uint8Array: DOC_FLAG_* bits of each doc
 *   dict.tri    Uint32Array: distinct exact-case trigrams (model/trigram.ts packing), ascending
 *   dict.loc    Uint32Array: per trigram (block number, byte offset in block, byte length | LOC_BITSET
 *               when the list is a bitset)
 *   sym.status  Uint8Array: SYMBOLS_* status of each doc (absent when built without symbols)
 *   crc.blocks  Uint32Array: CRC-32 of each posting block
 *   crc.content Uint32Array: CRC-32 of each doc's content
 *
 * Integrity: a reader refuses a segment whose seal is missing, whose files differ in size from the
 * seal (a truncated LMDB file would fault the process once mapped), or whose columns fail their
 * CRC; it checks each posting block and each doc's content against its CRC on first read.
 * meta.mdb also holds dbs "sym.defs" (name → posting list of the docs defining a non-local symbol
 * of that name, encoded as below) and "sym.refs" (name → varint byte length of the posting list of
 * the docs referencing an identifier of that name, the list, then per doc a reference info varint,
 * see packReferenceInfo). content.mdb holds db "symbols" (uint32 doc id → symbols/codec.ts encoding
 * of its FileSymbols, SYMBOLS_OK docs only) and db "symbols.imports" (the same encoding of the doc's
 * language and imports alone: what find_references reads of most files).
 * When info holds `blockMap` (block-map.ts BlockMapParams), content.mdb also holds db "blockmaps"
 * (uint32 doc id → CRC-32 of the bitmaps, then one bitmap per block) for every doc of at least
 * blockMap.minDocBytes; a segment without it is read as before, so adding it kept the version.
 * A posting list is the ascending doc ids containing the trigram, as LEB128 varints of
 * (id - previous - 1) with previous = -1 at the start, or, where that is smaller, as a bitset (bit
 * id%8 of byte id>>3, up to the byte of the largest id). Blocks pack many lists into values of
 * about BLOCK_TARGET_BYTES so LMDB overflow pages waste little space.
 *
 * A repository is served from a list of segments (oldest first); a newer segment replaces paths of
 * older ones, recorded as per-segment deleted doc ids in the manifest (see index/manifest.ts).
 */

import { isAscii, isUtf8 } from 'node:buffer';
import type { BlockMapParams } from './block-map.js';

export const FORMAT_VERSION = 9;

export const BLOCK_TARGET_BYTES = 64 * 1024;
/** Set in a dict.loc length: the list is a bitset. */
export const LOC_BITSET = 0x80000000;

export const DOC_FLAG_UTF8 = 1;
/** Every byte is below 0x80, so patterns may use their ASCII-only Hyperscan form. */
export const DOC_FLAG_ASCII = 2;

export function docFlags(content: Uint8Array): number {
  if (isAscii(content)) return DOC_FLAG_UTF8 | DOC_FLAG_ASCII;
  return isUtf8(content) ? DOC_FLAG_UTF8 : 0;
}

export const COL_INFO = 'info';
export const COL_PATHS = 'paths';
export const COL_BLOBS = 'blobs';
export const COL_SIZES = 'sizes';
export const COL_FLAGS = 'flags';
export const COL_DICT_TRI = 'dict.tri';
export const COL_DICT_LOC = 'dict.loc';
export const COL_SYMBOL_STATUS = 'sym.status';
export const COL_CRC_BLOCKS = 'crc.blocks';
export const COL_CRC_CONTENT = 'crc.content';
export const DB_SYMBOLS = 'symbols';
export const DB_SYMBOL_DEFS = 'sym.defs';
export const DB_SYMBOL_REFS = 'sym.refs';
export const DB_SYMBOL_IMPORTS = 'symbols.imports';
export const DB_BLOCK_MAPS = 'blockmaps';

/** What sym.refs says of one doc's references to a name: how many, and what reading them needs. */
export interface ReferenceInfo {
  readonly count: number;
  /** The doc defines the name (at any depth): its scopes decide. */
  readonly definesName: boolean;
  /** Some reference has a receiver (`x.name`). */
  readonly hasReceiver: boolean;
}

export function packReferenceInfo(info: ReferenceInfo): number {
  return info.count * 4 + (info.definesName ? 2 : 0) + (info.hasReceiver ? 1 : 0);
}

export function unpackReferenceInfo(packed: number): ReferenceInfo {
  return { count: Math.floor(packed / 4), definesName: (packed & 2) !== 0, hasReceiver: (packed & 1) !== 0 };
}

/** Per-doc symbol extraction status. */
export const SYMBOLS_NONE = 0;
export const SYMBOLS_OK = 1;
export const SYMBOLS_UNSUPPORTED = 2;
export const SYMBOLS_SKIPPED = 3;
export const SYMBOLS_FAILED = 4;

export const META_FILE = 'meta.mdb';
export const CONTENT_FILE = 'content.mdb';
export const SEAL_FILE = 'seal.json';
export const DAMAGED_FILE = 'damaged';

export interface SegmentInfo {
  readonly formatVersion: number;
  readonly docCount: number;
  readonly trigramCount: number;
  readonly blockCount: number;
  readonly postingBytes: number;
  /** The geometry of the segment's block maps; absent in segments written without them. */
  readonly blockMap?: BlockMapParams;
}
