/**
 * Backslash escapes RE2 accepts both inside and outside classes: single characters (`\n`, `\x{263a}`,
 * octal, punctuation) and the Perl, POSIX and Unicode classes. Reads through a Cursor; builds no nodes.
 */

import type { PropertyItem } from './ast.js';
import { ALL_CODE_POINTS, complement, rangeSet, type RangeSet } from './charset.js';
import { foldClose } from './case-fold.js';
import type { Cursor } from './cursor.js';

/** A piece of a character class: a set of code points or a Unicode property. */
export type ClassItem = { readonly set: RangeSet } | { readonly prop: PropertyItem };

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 0x07, f: 0x0c, t: 0x09, n: 0x0a, r: 0x0d, v: 0x0b };

const r = (lo: string, hi = lo): [number, number] => [lo.codePointAt(0) as number, hi.codePointAt(0) as number];

const DIGIT = rangeSet([r('0', '9')]);
const WORD = rangeSet([r('0', '9'), r('A', 'Z'), r('a', 'z'), r('_')]);
/** RE2's `\s` leaves out `\v`, unlike PCRE and JS. */
const PERL_SPACE = rangeSet([r('\t', '\n'), r('\f', '\r'), r(' ')]);

const PERL_CLASSES: Readonly<Record<string, RangeSet>> = { d: DIGIT, s: PERL_SPACE, w: WORD };

const POSIX_CLASSES: Readonly<Record<string, RangeSet>> = {
  alnum: rangeSet([r('0', '9'), r('A', 'Z'), r('a', 'z')]),
  alpha: rangeSet([r('A', 'Z'), r('a', 'z')]),
  ascii: rangeSet([r('\x00', '\x7f')]),
  blank: rangeSet([r('\t'), r(' ')]),
  cntrl: rangeSet([r('\x00', '\x1f'), r('\x7f')]),
  digit: DIGIT,
  graph: rangeSet([r('!', '~')]),
  lower: rangeSet([r('a', 'z')]),
  print: rangeSet([r(' ', '~')]),
  punct: rangeSet([r('!', '/'), r(':', '@'), r('[', '`'), r('{', '~')]),
  space: rangeSet([r('\t', '\r'), r(' ')]),
  upper: rangeSet([r('A', 'Z')]),
  word: WORD,
  xdigit: rangeSet([r('0', '9'), r('A', 'F'), r('a', 'f')]),
};

/** RE2's general categories (Go's `unicode.Categories`); any other name must be a script. */
const GENERAL_CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);

/** A Perl or POSIX group as RE2 adds it to a class: folded first when folding, then negated. */
function groupSet(base: RangeSet, negated: boolean, fold: boolean): RangeSet {
  const folded = fold ? foldClose(base) : base;
  return negated ? complement(folded) : folded;
}

function isOctal(c: string): boolean {
  return c >= '0' && c <= '7';
}

function isHex(c: string): boolean {
  return /^[0-9A-Fa-f]$/.test(c);
}

/** True when the cursor (at a backslash) starts a backreference rather than an octal escape. */
export function isBackreference(cur: Cursor): boolean {
  const d = cur.peek(1);
  if (d === '8' || d === '9') return true;
  return d >= '1' && d <= '7' && !isOctal(cur.peek(2));
}

/** Parses a single-character escape at the cursor (a backslash) and returns its code point. */
export function parseCharEscape(cur: Cursor): number {
  const start = cur.pos;
  cur.pos++;
  if (cur.atEnd()) return cur.fail('trailing backslash at end of expression', start);
  const c = cur.peek();
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) {
    cur.pos++;
    return simple;
  }
  if (c === '0' || (isOctal(c) && isOctal(cur.peek(1)))) {
    let value = 0;
    for (let i = 0; i < 3 && isOctal(cur.peek()); i++) {
      value = value * 8 + Number(cur.peek());
      cur.pos++;
    }
    return value;
  }
  if (c === 'x') return parseHexEscape(cur, start);
  const cp = cur.nextCodePoint();
  if (cp < 0x80 && !/[0-9A-Za-z]/.test(c)) return cp;
  return cur.fail(`invalid escape sequence: \`${cur.since(start)}\``, start);
}

function parseHexEscape(cur: Cursor, start: number): number {
  cur.pos++;
  let digits: string;
  if (cur.peek() === '{') {
    const close = cur.src.indexOf('}', cur.pos);
    digits = close < 0 ? '' : cur.src.slice(cur.pos + 1, close);
    if (close < 0 || digits.length === 0 || ![...digits].every(isHex)) cur.fail('invalid escape sequence: `\\x{`', start);
    cur.pos = close + 1;
  } else {
    digits = cur.src.slice(cur.pos, cur.pos + 2);
    if (digits.length < 2 || ![...digits].every(isHex)) cur.fail(`invalid escape sequence: \`\\x${digits}\``, start);
    cur.pos += 2;
  }
  const value = digits.length > 6 ? Infinity : parseInt(digits, 16);
  if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) cur.fail(`invalid escape sequence: \`${cur.since(start)}\``, start);
  return value;
}

/** `\d \D \s \S \w \W` at the cursor, or null when the escape is something else. */
export function parsePerlClass(cur: Cursor, fold: boolean): RangeSet | null {
  const letter = cur.peek(1);
  const base = PERL_CLASSES[letter.toLowerCase()];
  if (base === undefined) return null;
  cur.pos += 2;
  return groupSet(base, letter !== letter.toLowerCase(), fold);
}

/** `[:alpha:]` or `[:^alpha:]` at the cursor, or null when the text is not a POSIX class. */
export function parsePosixClass(cur: Cursor, fold: boolean): RangeSet | null {
  const match = /^\[:(\^?)([^:\]]*):\]/.exec(cur.src.slice(cur.pos, cur.pos + 16));
  if (match === null) return null;
  const base = POSIX_CLASSES[match[2] as string];
  if (base === undefined) return cur.fail(`invalid character class range: \`${match[0]}\``);
  cur.pos += match[0].length;
  return groupSet(base, match[1] === '^', fold);
}

/** `\pL`, `\p{Greek}`, `\P{Lu}`, `\p{^Han}` at the cursor, as items whose union is the class. */
export function parseUnicodeClass(cur: Cursor, fold: boolean): ClassItem[] {
  const start = cur.pos;
  let negated = cur.peek(1) === 'P';
  cur.pos += 2;
  let name: string;
  if (cur.peek() === '{') {
    const close = cur.src.indexOf('}', cur.pos);
    if (close < 0) return cur.fail(`invalid character class range: \`${cur.src.slice(start)}\``, start);
    name = cur.src.slice(cur.pos + 1, close);
    cur.pos = close + 1;
  } else {
    name = cur.atEnd() ? '' : String.fromCodePoint(cur.nextCodePoint());
  }
  if (name.startsWith('^')) {
    negated = !negated;
    name = name.slice(1);
  }
  if (name === 'Any') return [{ set: groupSet(ALL_CODE_POINTS, negated, fold) }];
  // RE2's Other (C) lists only Cc, Cf, Co and Cs; JS's also holds the unassigned code points (Cn).
  if (name === 'C') {
    if (negated) return [{ prop: { name: 'C', negated: true } }, { prop: { name: 'Cn', negated: false } }];
    return ['Cc', 'Cf', 'Co', 'Cs'].map((n) => ({ prop: { name: n, negated: false } }));
  }
  const jsName = propertyName(name);
  if (jsName === null) return cur.fail(`invalid character class range: \`${cur.since(start)}\``, start);
  return [{ prop: { name: jsName, negated } }];
}

/** The JS `\p{…}` body for an RE2 category or script name, or null when there is no such name. */
function propertyName(name: string): string | null {
  if (GENERAL_CATEGORIES.has(name)) return name;
  if (!/^[A-Za-z_]+$/.test(name)) return null;
  try {
    new RegExp(`\\p{Script=${name}}`, 'u');
    return `Script=${name}`;
  } catch {
    return null;
  }
}
