/**
 * Turns a hay's bytes into the string the JS engine searches, plus a map from UTF-16 indices back
 * to byte offsets. Three decodings: UTF-8, latin1 (one char per byte) and lossy UTF-8.
 */

import { Buffer } from 'node:buffer';

/** Maps UTF-16 indices to byte offsets; calls between resets must not decrease. */
export interface OffsetMap {
  reset(): void;
  toByte(index: number): number;
}

export interface HayText {
  readonly text: string;
  readonly offsets: OffsetMap;
}

const identity: OffsetMap = { reset() {}, toByte: (index) => index };

// ignoreBOM keeps a leading U+FEFF in the text so indices still line up with the bytes.
const utf8Decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Valid UTF-8 hay; walks code units forward so each scan costs O(n), not O(n) per match. */
export function decodeUtf8(hay: Uint8Array): HayText {
  const text = utf8Decoder.decode(hay);
  // Only pure ASCII decodes to exactly one code unit per byte.
  return { text, offsets: text.length === hay.length ? identity : new Utf8Cursor(text) };
}

export function decodeLatin1(hay: Uint8Array): HayText {
  return { text: Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).toString('latin1'), offsets: identity };
}

/**
 * Invalid UTF-8: valid sequences become their code points, every other byte one U+FFFD, and a
 * table records where each code unit starts.
 */
export function decodeLossy(hay: Uint8Array): HayText {
  const units = new Uint16Array(hay.length);
  const starts = new Uint32Array(hay.length + 1);
  let count = 0;
  let at = 0;
  while (at < hay.length) {
    const length = sequenceLength(hay, at);
    let codePoint = 0xfffd;
    if (length === 1) codePoint = hay[at];
    else if (length > 1) codePoint = decodeSequence(hay, at, length);
    if (codePoint > 0xffff) {
      starts[count] = at;
      units[count++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      starts[count] = at;
      units[count++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
    } else {
      starts[count] = at;
      units[count++] = codePoint;
    }
    at += Math.max(length, 1);
  }
  starts[count] = hay.length;
  return { text: fromCodeUnits(units.subarray(0, count)), offsets: { reset() {}, toByte: (index) => starts[index] } };
}

function fromCodeUnits(units: Uint16Array): string {
  const chunk = 8192;
  let text = '';
  for (let at = 0; at < units.length; at += chunk) {
    text += String.fromCharCode(...units.subarray(at, at + chunk));
  }
  return text;
}

class Utf8Cursor implements OffsetMap {
  private index = 0;
  private byte = 0;

  constructor(private readonly text: string) {}

  reset(): void {
    this.index = 0;
    this.byte = 0;
  }

  toByte(index: number): number {
    const text = this.text;
    while (this.index < index) {
      const unit = text.charCodeAt(this.index++);
      if (unit < 0x80) this.byte += 1;
      else if (unit < 0x800) this.byte += 2;
      else if (unit >= 0xd800 && unit <= 0xdbff) this.byte += 4;
      else if (unit < 0xdc00 || unit > 0xdfff) this.byte += 3;
    }
    return this.byte;
  }
}

/** The length of the valid UTF-8 sequence at `at`, or 0 when the byte there starts none. */
function sequenceLength(hay: Uint8Array, at: number): number {
  const lead = hay[at];
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  if (at + length > hay.length) return 0;
  const second = hay[at + 1];
  if (second < low || second > high) return 0;
  for (let i = 2; i < length; i++) {
    if ((hay[at + i] & 0xc0) !== 0x80) return 0;
  }
  return length;
}

function decodeSequence(hay: Uint8Array, at: number, length: number): number {
  let codePoint = hay[at] & (0xff >> (length + 1));
  for (let i = 1; i < length; i++) codePoint = (codePoint << 6) | (hay[at + i] & 0x3f);
  return codePoint;
}
