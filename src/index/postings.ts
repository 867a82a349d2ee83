/**
 * Posting list encodings (format.ts): ascending uint32 doc ids as LEB128 varints of gaps, or, for
 * a list that is smaller so, a bitset (bit id%8 of byte id>>3). Pure functions over typed arrays;
 * the hot loops avoid allocation per element.
 */
import { LOC_BITSET } from './format.js';

/** Appends `id` after `previous` (-1 for the first) to `out` at `pos`; returns the new position. */
export function writeGap(out: Uint8Array, pos: number, id: number, previous: number): number {
  let gap = id - previous - 1;
  while (gap >= 0x80) {
    out[pos++] = (gap & 0x7f) | 0x80;
    gap >>>= 7;
  }
  out[pos++] = gap;
  return pos;
}

export function encodePostings(ids: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(ids.length * 5);
  let pos = 0;
  let previous = -1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    pos = writeGap(out, pos, id, previous);
    previous = id;
  }
  return out.slice(0, pos);
}

/** Decodes a list into `out` (grown when too small); returns the filled view. */
export function decodePostings(bytes: Uint8Array, start = 0, end = bytes.length, out?: Uint32Array): Uint32Array {
  let ids = out && out.length >= end - start ? out : new Uint32Array(end - start);
  let n = 0;
  let previous = -1;
  let pos = start;
  while (pos < end) {
    let byte = bytes[pos++]!;
    let gap = byte & 0x7f;
    let shift = 7;
    while (byte & 0x80) {
      byte = bytes[pos++]!;
      gap += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    previous = previous + gap + 1;
    if (n === ids.length) {
      const grown = new Uint32Array(ids.length * 2 + 16);
      grown.set(ids);
      ids = grown;
    }
    ids[n++] = previous;
  }
  return ids.subarray(0, n);
}

/** A dict.loc length field (format.ts): the list's byte length, and whether it is a bitset. */
export function listShape(loc: number): { readonly bytes: number; readonly bitset: boolean } {
  return { bytes: (loc & ~LOC_BITSET) >>> 0, bitset: (loc & LOC_BITSET) !== 0 };
}

/** The ids in [lo, hi) of a list stored at block[start…] with dict.loc length `loc` (format.ts). */
export function decodeList(block: Uint8Array, start: number, loc: number, lo = 0, hi = 0xffffffff): Uint32Array {
  const { bytes, bitset } = listShape(loc);
  if (bitset) return bitsetIds(block, start, bytes, lo, hi);
  return decodePostings(block, start, start + bytes).filter((id) => id >= lo && id < hi);
}

/** Bytes of the bitset of a list whose largest id is `lastId`. */
export function bitsetBytes(lastId: number): number {
  return (lastId >>> 3) + 1;
}

/** Writes the bitset of `ids` (ascending) into `out` from `at`, which must hold zeros. */
export function writeBitset(ids: Uint32Array, out: Uint8Array, at: number): void {
  for (let i = 0; i < ids.length; i++) out[at + (ids[i]! >>> 3)]! |= 1 << (ids[i]! & 7);
}

/** The ids in [lo, hi) of the bitset at bytes[start, start + length). */
export function bitsetIds(bytes: Uint8Array, start: number, length: number, lo: number, hi: number): Uint32Array {
  const first = Math.min(length, lo >>> 3);
  const last = Math.min(length, Math.ceil(Math.min(hi, length * 8) / 8));
  const ids = new Uint32Array((last - first) * 8);
  let n = 0;
  for (let b = first; b < last; b++) {
    let byte = bytes[start + b]!;
    while (byte !== 0) {
      const bit = 31 - Math.clz32(byte & -byte);
      const id = b * 8 + bit;
      if (id >= lo && id < hi) ids[n++] = id;
      byte &= byte - 1;
    }
  }
  return ids.slice(0, n);
}

/** The ids of `ids` whose bit is set in the bitset at bytes[start, start + length). */
export function keepInBitset(ids: Uint32Array, bytes: Uint8Array, start: number, length: number): Uint32Array {
  const out = new Uint32Array(ids.length);
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const b = id >>> 3;
    if (b < length && (bytes[start + b]! & (1 << (id & 7))) !== 0) out[n++] = id;
  }
  return out.subarray(0, n);
}
