/**
 * The content fields nls_search's BM25F weighs a term's occurrences by: comments, string literals and
 * the rest of the code, told apart on each line by its syntax. Pure text work: it never reads files.
 */

export type ContentField = 'comment' | 'string' | 'code';

/**
 * Worth of one occurrence, in units of one in code: a comment says what the code does in prose; a
 * string literal is mostly a message or a key, nearer a mention than an implementation.
 */
export const FIELD_WEIGHTS: Readonly<Record<ContentField, number>> = { comment: 1, string: 0.5, code: 1 };

/** A line inside or opening a block comment or a docstring. */
const COMMENT_LINE = /^\s*(?:\/\*|\*|"""|''')/;

/** A function telling, for a character offset of the line, which content field it lies in. */
export function lineFieldAt(line: string): (offset: number) => ContentField {
  if (COMMENT_LINE.test(line)) return () => 'comment';
  const strings: [number, number][] = [];
  let commentAt = line.length;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === '`' || (c === "'" && line.indexOf("'", i + 1) > i)) {
      const end = closingQuote(line, i);
      strings.push([i, end]);
      i = end;
      continue;
    }
    if (opensLineComment(line, i)) {
      commentAt = i;
      break;
    }
  }
  return (offset) => {
    if (offset >= commentAt) return 'comment';
    return strings.some(([start, end]) => offset > start && offset < end) ? 'string' : 'code';
  };
}

/** `//` and `/*`, or `#` standing alone before a space (a comment, not `#include` or `#[derive]`): the rest of the line is prose. */
function opensLineComment(line: string, i: number): boolean {
  const c = line[i];
  if (c === '/') return line[i + 1] === '/' || line[i + 1] === '*';
  if (c !== '#') return false;
  return (i === 0 || /\s/.test(line[i - 1]!)) && (i + 1 === line.length || /\s/.test(line[i + 1]!));
}

/** The offset of the quote closing the one at `open`, past escapes; the line's end when it stays open. */
function closingQuote(line: string, open: number): number {
  const quote = line[open];
  for (let i = open + 1; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === quote) return i;
  }
  return line.length;
}
