/**
 * Block maps of large documents: per block of the document, a bitmap of the (hashed) trigrams that
 * start in it, so a search can tell that a string's trigrams never occur together before it reads
 * the document. Postings say only that a document holds each trigram somewhere; a large generated
 * header holds most trigrams somewhere. Built by the index workers, checked by the shard searcher.
 */
import { crc32 } from 'node:zlib';

export interface BlockMapParams {
  /** Bytes of document per block. */
  readonly blockBytes: number;
  /** log2 of the bitmap's size in bits: each block's bitmap is 2^bits / 8 bytes. */
  readonly bits: number;
  /**
   * A block's bitmap also holds the trigrams starting this many bytes past its end, so the first
   * overlap + 1 trigrams of any string starting in the block are in its bitmap.
   */
  readonly overlap: number;
  /** Documents smaller than this have no map: reading them costs little more than reading a map. */
  readonly minDocBytes: number;
}

/** 512 bytes of bitmap per 8 KiB: 6.25% of the mapped documents' size. */
export const BLOCK_MAP_PARAMS: BlockMapParams = Object.freeze({ blockBytes: 8192, bits: 12, overlap: 32, minDocBytes: 32768 });

/** Bytes before the bitmaps in a stored map: the CRC-32 of the bitmaps, little-endian. */
export const BLOCK_MAP_HEADER_BYTES = 4;

export function hasBlockMap(size: number, params: BlockMapParams): boolean {
  return size >= params.minDocBytes;
}

export function blockCount(size: number, params: BlockMapParams): number {
  return Math.ceil(size / params.blockBytes);
}

export function bitmapBytes(params: BlockMapParams): number {
  return (1 << params.bits) >>> 3;
}

/** The bit a trigram sets in a block's bitmap (Fibonacci hashing: the top `bits` bits of the product). */
export function trigramBit(trigram: number, bits: number): number {
  return Math.imul(trigram, 0x9e3779b1) >>> (32 - bits);
}

/** The stored map of `content`: header, then one bitmap per block in block order. */
export function encodeBlockMap(content: Uint8Array, params: BlockMapParams): Uint8Array {
  const perBlock = bitmapBytes(params);
  const blocks = blockCount(content.length, params);
  const out = new Uint8Array(BLOCK_MAP_HEADER_BYTES + blocks * perBlock);
  const lastStart = content.length - 3;
  for (let block = 0; block < blocks; block++) {
    const base = BLOCK_MAP_HEADER_BYTES + block * perBlock;
    const end = Math.min(lastStart, (block + 1) * params.blockBytes + params.overlap - 1);
    for (let i = block * params.blockBytes; i <= end; i++) {
      const bit = trigramBit((content[i]! << 16) | (content[i + 1]! << 8) | content[i + 2]!, params.bits);
      out[base + (bit >>> 3)]! |= 1 << (bit & 7);
    }
  }
  new DataView(out.buffer).setUint32(0, crc32(out.subarray(BLOCK_MAP_HEADER_BYTES)), true);
  return out;
}

/** The bitmaps of a stored map, or null when its CRC or length is wrong. */
export function blockMapBitmaps(stored: Uint8Array, size: number, params: BlockMapParams): Uint8Array | null {
  if (stored.length !== BLOCK_MAP_HEADER_BYTES + blockCount(size, params) * bitmapBytes(params)) return null;
  const bitmaps = stored.subarray(BLOCK_MAP_HEADER_BYTES);
  const crc = new DataView(stored.buffer, stored.byteOffset, BLOCK_MAP_HEADER_BYTES).getUint32(0, true);
  return crc32(bitmaps) === crc ? bitmaps : null;
}

/** The stored maps of a batch's documents that have one, packed for a transfer between threads. */
export interface BlockMapBatch {
  readonly docs: Uint32Array;
  readonly data: Uint8Array;
  /** End offset in data of each doc's map. */
  readonly ends: Uint32Array;
}

/** Maps of `docs` (doc ids from firstDoc on), with BLOCK_MAP_PARAMS. */
export function encodeBlockMaps(firstDoc: number, docs: readonly Uint8Array[]): BlockMapBatch {
  const ids: number[] = [];
  const maps: Uint8Array[] = [];
  docs.forEach((content, i) => {
    if (!hasBlockMap(content.length, BLOCK_MAP_PARAMS)) return;
    ids.push(firstDoc + i);
    maps.push(encodeBlockMap(content, BLOCK_MAP_PARAMS));
  });
  const data = new Uint8Array(maps.reduce((n, m) => n + m.length, 0));
  const ends = new Uint32Array(maps.length);
  let at = 0;
  maps.forEach((m, i) => {
    data.set(m, at);
    at += m.length;
    ends[i] = at;
  });
  return { docs: Uint32Array.from(ids), data, ends };
}

/** Each (doc, stored map) of a batch. */
export function forEachBlockMap(batch: BlockMapBatch, visit: (doc: number, map: Uint8Array) => void): void {
  let start = 0;
  batch.docs.forEach((doc, i) => {
    visit(doc, batch.data.subarray(start, batch.ends[i]!));
    start = batch.ends[i]!;
  });
}
