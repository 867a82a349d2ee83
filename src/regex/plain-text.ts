/**
 * Patterns that are plain text, perhaps tied to the start or end of a line (`^github\.com/org/repo$`),
 * matched with string operations instead of a regex engine: what Sourcegraph clients send in repo:
 * filters, answered on the calling thread in time linear in the text.
 */
import type { RegexNode } from './ast.js';
import { hasCaseVariants } from './case-fold.js';

export interface PlainText {
  readonly text: string;
  /** ASCII letters match either case (the only case variants a caseless ASCII text has). */
  readonly caseless: boolean;
  readonly atLineStart: boolean;
  readonly atLineEnd: boolean;
}

/** The plain text a pattern amounts to, or null when it needs a regex engine. */
export function plainTextOf(root: RegexNode): PlainText | null {
  const items = root.kind === 'concat' ? [...root.items] : [root];
  const atLineStart = items.length > 0 && isStart(items[0]!);
  if (atLineStart) items.shift();
  const atLineEnd = items.length > 0 && isEnd(items[items.length - 1]!);
  if (atLineEnd) items.pop();
  let text = '';
  let folded: boolean | null = null;
  for (const item of items) {
    if (item.kind !== 'literal') return null;
    if (hasCaseVariants(item.cp)) {
      if (folded !== null && folded !== item.fold) return null;
      folded = item.fold;
    }
    text += String.fromCodePoint(item.cp);
  }
  const isCaseless = folded ?? false;
  // Outside ASCII, case variants are many; leave those to the engines.
  if (isCaseless && /[^\x00-\x7f]/.test(text)) return null;
  return { text, caseless: isCaseless, atLineStart, atLineEnd };
}

function isStart(node: RegexNode): boolean {
  return node.kind === 'assert' && (node.assert === 'lineStart' || node.assert === 'textStart');
}

function isEnd(node: RegexNode): boolean {
  return node.kind === 'assert' && (node.assert === 'lineEnd' || node.assert === 'textEnd');
}

/** Whether `subject` holds a match of the plain text, as the regex it came from would say. */
export function matchesPlain(plain: PlainText, subject: string): boolean {
  const text = plain.caseless ? foldAscii(plain.text) : plain.text;
  const hay = plain.caseless ? foldAscii(subject) : subject;
  const lines = plain.atLineStart || plain.atLineEnd ? hay.split('\n') : [hay];
  return lines.some((line) => {
    if (plain.atLineStart && plain.atLineEnd) return line === text;
    if (plain.atLineStart) return line.startsWith(text);
    if (plain.atLineEnd) return line.endsWith(text);
    return line.includes(text);
  });
}

/** Where the plain text occurs in `subject` ([start, end) in UTF-16 code units, not overlapping); none for an empty text. */
export function plainRanges(plain: PlainText, subject: string): [number, number][] {
  if (plain.text === '') return [];
  const text = plain.caseless ? foldAscii(plain.text) : plain.text;
  const hay = plain.caseless ? foldAscii(subject) : subject;
  const out: [number, number][] = [];
  let lineStart = 0;
  for (const line of hay.split('\n')) {
    const push = (at: number): number => out.push([lineStart + at, lineStart + at + text.length]);
    if (plain.atLineStart && plain.atLineEnd) {
      if (line === text) push(0);
    } else if (plain.atLineStart) {
      if (line.startsWith(text)) push(0);
    } else if (plain.atLineEnd) {
      if (line.endsWith(text)) push(line.length - text.length);
    } else {
      for (let at = line.indexOf(text); at >= 0; at = line.indexOf(text, at + text.length)) push(at);
    }
    lineStart += line.length + 1;
  }
  return out;
}

/**
 * Lower-cases ASCII letters only, and maps the two non-ASCII code points whose case orbit holds an
 * ASCII letter (KELVIN SIGN, LATIN SMALL LETTER LONG S) to it: exact for an ASCII pattern text, and
 * it keeps every offset, as each of these is one UTF-16 unit before and after.
 */
function foldAscii(text: string): string {
  return text.replace(/[A-Z\u212a\u017f]/g, (c) => (c === '\u212a' ? 'k' : c === '\u017f' ? 's' : c.toLowerCase()));
}
