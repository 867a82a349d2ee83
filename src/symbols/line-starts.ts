/**
 * Line starts of a source text, for turning string offsets into line/column ranges without asking
 * tree-sitter for node positions (each such call allocates a point object across the binding).
 */
import type { SourceRange } from '../model/symbols.js';

export class LineStarts {
  private readonly starts: Uint32Array;
  private readonly count: number;
  /** Length of the longest line, in UTF-16 code units. */
  readonly longestLine: number;

  constructor(text: string) {
    let starts = new Uint32Array(Math.max(16, text.length >>> 5));
    let count = 1;
    let longest = 0;
    let from = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
      if (at - from > longest) longest = at - from;
      from = at + 1;
      if (count === starts.length) {
        const grown = new Uint32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[count++] = from;
    }
    this.starts = starts;
    this.count = count;
    this.longestLine = Math.max(longest, text.length - from);
  }

  /** The 0-based line holding offset `at` (tree-sitter counts rows by '\n' alone, as here). */
  lineOf(at: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  range(start: number, end: number): SourceRange {
    const startLine = this.lineOf(start);
    const endLine = end === start ? startLine : this.lineOf(end);
    return { startLine, startColumn: start - this.starts[startLine]!, endLine, endColumn: end - this.starts[endLine]! };
  }
}
