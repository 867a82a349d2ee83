/**
 * Posting list encoding: ascending uint32 doc ids as LEB128 varints of gaps (format.ts).
 * Pure functions over typed arrays; the hot loops avoid allocation per element.
 */

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
