/**
 * Numbered file lines added to an answer while the token budget lasts. A line is never cut to fit
 * the space left, only when it alone is longer than a whole answer could ever be.
 */
import type { AnswerBuilder } from '../answer.js';
import { LINE_TRUNCATED, truncateLine } from '../format.js';

/** Below this, a cut-down giant line would carry too little to be worth showing now. */
const MIN_CUT_LINE_CHARS = 200;

/**
 * Adds `N: line` for lines[from-1 .. to-1] (1-based, inclusive) and returns the first line number
 * not added: `to + 1` when all fit. `capacity` is what the builder held for lines before any was added.
 */
export function addNumberedLines(builder: AnswerBuilder, lines: readonly string[], from: number, to: number, capacity: number): number {
  for (let n = from; n <= to; n++) {
    const prefix = `${n}: `;
    const line = lines[n - 1]!;
    if (builder.add(`${prefix}${line}\n`)) continue;
    const room = builder.remainingChars - prefix.length - LINE_TRUNCATED.length - 1;
    const hopeless = prefix.length + line.length + 1 > capacity;
    if (!hopeless || room < MIN_CUT_LINE_CHARS) return n;
    builder.add(`${prefix}${truncateLine(line, room)}\n`);
  }
  return to + 1;
}
