/**
 * Many short texts (repository names, commit messages, authors, paths) packed into one UTF-8 buffer
 * with end offsets so they cross to a worker in one piece, and what the worker answers about them.
 * Packing only: the matching is text-batch-scan.ts, in a worker.
 */
import type { PatternSpec } from '../matcher/matcher.js';

export interface TextBatch {
  /** Every text as UTF-8, back to back. */
  readonly data: Uint8Array;
  /** Text i ends at byte ends[i]. */
  readonly ends: Uint32Array;
}

export interface TextMatchJob extends TextBatch {
  /** Each is matched on its own, as a one-pattern set. */
  readonly specs: readonly PatternSpec[];
  /** Texts to match (1) or skip (0); null matches every text. */
  readonly scope: Uint8Array | null;
  /** Also report where each pattern matches in the texts it hits. */
  readonly ranges: boolean;
  /** Epoch milliseconds: matching stops there and says so. */
  readonly deadline: number;
}

export interface TextMatches {
  /** hits[p * textCount + t] is 1 when pattern p matches text t. */
  readonly hits: Uint8Array;
  /** With `ranges`: (pattern, text, start byte, end byte) quads, by pattern then text. */
  readonly ranges: Int32Array;
  /** The deadline passed before every text was matched: hits are incomplete. */
  readonly timedOut: boolean;
}

/** `shared` puts the bytes in SharedArrayBuffers, so a batch kept for many jobs is never copied. */
export function packTexts(texts: readonly string[], shared = false): TextBatch {
  const buffer = (bytes: number): ArrayBufferLike => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const ends = new Uint32Array(buffer(texts.length * Uint32Array.BYTES_PER_ELEMENT));
  let bytes = 0;
  texts.forEach((text, i) => (ends[i] = bytes += Buffer.byteLength(text, 'utf8')));
  const data = new Uint8Array(buffer(bytes));
  const encoder = new TextEncoder();
  texts.forEach((text, i) => encoder.encodeInto(text, data.subarray(i === 0 ? 0 : ends[i - 1]!)));
  return { data, ends };
}
