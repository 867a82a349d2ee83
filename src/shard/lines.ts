/**
 * Turns byte ranges of matches in a document into line matches: 0-based line numbers, the line's
 * text, and [offset, length] in code points. Multi-line matches are split at line ends.
 */
import type { LineMatch, OffsetAndLength } from '../model/result.js';

const NEWLINE = 10;
const CR = 13;
const decoder = new TextDecoder();

/** A piece of a match on one line: [start, end) bytes, end at most the line's end. */
interface Piece {
  readonly lineNumber: number;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly start: number;
  readonly end: number;
}

/** `ranges` are [start, end) byte pairs, flattened, sorted by start. */
export function toLineMatches(content: Uint8Array, ranges: readonly number[]): LineMatch[] {
  const out: LineMatch[] = [];
  let group: Piece[] = [];
  for (const piece of splitByLine(content, ranges)) {
    if (group.length > 0 && group[0]!.lineNumber !== piece.lineNumber) {
      out.push(makeLine(content, group));
      group = [];
    }
    group.push(piece);
  }
  if (group.length > 0) out.push(makeLine(content, group));
  return out;
}

function* splitByLine(content: Uint8Array, ranges: readonly number[]): Generator<Piece> {
  let lineNumber = 0;
  let lineStart = 0;
  let lineEnd = lineEndFrom(content, 0);
  // After a final newline (or in an empty file) there is no line, so a match there is none.
  const noLineAtEnd = content.length === 0 || content[content.length - 1] === NEWLINE;
  for (let i = 0; i < ranges.length; i += 2) {
    let start = ranges[i]!;
    const end = ranges[i + 1]!;
    if (noLineAtEnd && start >= content.length) continue;
    for (;;) {
      while (start > lineEnd && lineEnd < content.length) {
        lineStart = lineEnd + 1;
        lineEnd = lineEndFrom(content, lineStart);
        lineNumber++;
      }
      yield { lineNumber, lineStart, lineEnd, start, end: Math.min(end, lineEnd) };
      start = lineEnd + 1;
      if (end <= start || lineEnd >= content.length) break;
    }
  }
}

function lineEndFrom(content: Uint8Array, from: number): number {
  const i = content.indexOf(NEWLINE, from);
  return i === -1 ? content.length : i;
}

function makeLine(content: Uint8Array, pieces: readonly Piece[]): LineMatch {
  const { lineNumber, lineStart, lineEnd } = pieces[0]!;
  const textEnd = lineEnd > lineStart && content[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
  const offsets: OffsetAndLength[] = pieces.map((p) => [codePoints(content, lineStart, p.start), codePoints(content, p.start, p.end)]);
  offsets.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const unique = offsets.filter((p, i) => i === 0 || p[0] !== offsets[i - 1]![0] || p[1] !== offsets[i - 1]![1]);
  return { line: decoder.decode(content.subarray(lineStart, textEnd)), lineNumber, offsetAndLengths: unique };
}

/** Code points in content[from, to): every byte that is not a UTF-8 continuation byte. */
export function codePoints(content: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((content[i]! & 0xc0) !== 0x80) n++;
  return n;
}
