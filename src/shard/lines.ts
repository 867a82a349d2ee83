/**
 * Turns byte ranges of matches in a document into line matches: 0-based line numbers, the line's
 * text, and [offset, length] in code points. Line positions come from one native pass
 * (matcher/lines.ts); multi-line matches are split at line ends.
 */
import { lineSpans } from '../matcher/lines.js';
import type { LineMatch, OffsetAndLength } from '../model/result.js';

const NEWLINE = 10;
const CR = 13;

interface LineEntry {
  readonly lineNumber: number;
  readonly start: number;
  readonly end: number;
  readonly pieces: [number, number][];
}

let starts = new Int32Array(1024);
let spans = new Int32Array(3 * 1024);

/** `ranges` are [start, end) byte pairs, flattened, sorted by start; at most `maxLines` lines come back, the first ones. */
export function toLineMatches(content: Uint8Array, ranges: readonly number[], maxLines = Infinity): LineMatch[] {
  // After a final newline (or in an empty file) there is no line, so a match there is none.
  const limit = content.length === 0 || content[content.length - 1] === NEWLINE ? content.length : content.length + 1;
  const count = collectStarts(ranges, limit);
  if (count === 0) return [];
  lineSpans(content, starts, count, spans);
  const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  return singleLineOnly(ranges, count) ? fastLines(content, buffer, ranges, count, maxLines) : splitLines(content, buffer, ranges, count, maxLines);
}

/** True when no match runs past the end of its line (the common case). */
function singleLineOnly(ranges: readonly number[], count: number): boolean {
  for (let i = 0; i < count; i++) if (ranges[i * 2 + 1]! > spans[i * 3 + 2]! + 1) return false;
  return true;
}

/** Ranges sorted by start on single lines: consecutive ranges on one line share a LineMatch. */
function fastLines(content: Uint8Array, buffer: Buffer, ranges: readonly number[], count: number, maxLines: number): LineMatch[] {
  const out: LineMatch[] = [];
  let i = 0;
  while (i < count && out.length < maxLines) {
    const lineNumber = spans[i * 3]!;
    const lineStart = spans[i * 3 + 1]!;
    const lineEnd = spans[i * 3 + 2]!;
    const offsets: OffsetAndLength[] = [];
    let counted = lineStart;
    let chars = 0;
    for (; i < count && spans[i * 3]! === lineNumber; i++) {
      const start = ranges[i * 2]!;
      const end = Math.min(ranges[i * 2 + 1]!, lineEnd);
      chars += codePoints(content, counted, start);
      counted = start;
      const length = codePoints(content, start, end);
      const last = offsets[offsets.length - 1];
      if (!last || last[0] !== chars || last[1] !== length) offsets.push([chars, length]);
    }
    out.push(lineMatch(content, buffer, lineNumber, lineStart, lineEnd, offsets));
  }
  return out;
}

/** The general case: matches spanning lines are split, and lines are regrouped by number. */
function splitLines(content: Uint8Array, buffer: Buffer, ranges: readonly number[], count: number, maxLines: number): LineMatch[] {
  const lines = new Map<number, LineEntry>();
  for (let i = 0; i < count; i++) {
    const lineEnd = spans[i * 3 + 2]!;
    const start = ranges[i * 2]!;
    const end = ranges[i * 2 + 1]!;
    addPiece(lines, spans[i * 3]!, spans[i * 3 + 1]!, lineEnd, start, Math.min(end, lineEnd));
    if (end > lineEnd + 1) addContinuation(content, lines, spans[i * 3]!, lineEnd, end);
  }
  return [...lines.values()].sort((a, b) => a.lineNumber - b.lineNumber).slice(0, maxLines).map((entry) => makeLine(content, buffer, entry));
}

function collectStarts(ranges: readonly number[], limit: number): number {
  const pairs = ranges.length / 2;
  if (starts.length < pairs) {
    starts = new Int32Array(pairs * 2);
    spans = new Int32Array(pairs * 6);
  }
  let n = 0;
  for (let r = 0; r < ranges.length; r += 2) if (ranges[r]! < limit) starts[n++] = ranges[r]!;
  return n;
}

function addPiece(lines: Map<number, LineEntry>, lineNumber: number, lineStart: number, lineEnd: number, start: number, end: number): void {
  let entry = lines.get(lineNumber);
  if (!entry) {
    entry = { lineNumber, start: lineStart, end: lineEnd, pieces: [] };
    lines.set(lineNumber, entry);
  }
  entry.pieces.push([start, end]);
}

/** The lines after the first that a multi-line match covers. */
function addContinuation(content: Uint8Array, lines: Map<number, LineEntry>, lineNumber: number, lineEnd: number, end: number): void {
  let lineStart = lineEnd + 1;
  while (lineStart < end && lineStart < content.length) {
    lineNumber++;
    const next = content.indexOf(NEWLINE, lineStart);
    const thisEnd = next === -1 ? content.length : next;
    addPiece(lines, lineNumber, lineStart, thisEnd, lineStart, Math.min(end, thisEnd));
    lineStart = thisEnd + 1;
  }
}

function lineMatch(content: Uint8Array, buffer: Buffer, lineNumber: number, start: number, end: number, offsetAndLengths: OffsetAndLength[]): LineMatch {
  const textEnd = end > start && content[end - 1] === CR ? end - 1 : end;
  return { line: buffer.toString('utf8', start, textEnd), lineNumber, offsetAndLengths };
}

function makeLine(content: Uint8Array, buffer: Buffer, entry: LineEntry): LineMatch {
  const { start, end } = entry;
  entry.pieces.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const offsets: OffsetAndLength[] = [];
  let counted = start;
  let chars = 0;
  let previous: [number, number] | null = null;
  for (const piece of entry.pieces) {
    if (previous && previous[0] === piece[0] && previous[1] === piece[1]) continue;
    chars += codePoints(content, counted, piece[0]);
    counted = piece[0];
    offsets.push([chars, codePoints(content, piece[0], piece[1])]);
    previous = piece;
  }
  return lineMatch(content, buffer, entry.lineNumber, start, end, offsets);
}

/** Code points in content[from, to): every byte that is not a UTF-8 continuation byte. */
export function codePoints(content: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((content[i]! & 0xc0) !== 0x80) n++;
  return n;
}
