/**
 * Query lexer: splits Sourcegraph query text into tokens carrying 0-based source offsets.
 * It knows token shapes only; what a word or a filter value means is decided by the parser.
 */
import { isKnownFieldName } from './fields.js';
import { syntaxError } from './syntax-error.js';

interface Span {
  readonly start: number;
  /** Offset just past the token. */
  readonly end: number;
}

export interface ParenToken extends Span {
  readonly kind: 'lparen' | 'rparen';
}

/** `and`, `or`, `not` in any letter case, only as whole words. */
export interface OperatorToken extends Span {
  readonly kind: 'and' | 'or' | 'not';
}

/** Unquoted text, exactly as written (escapes are left for the pattern type to interpret). */
export interface WordToken extends Span {
  readonly kind: 'word';
  readonly text: string;
}

/** '…' or "…": `value` has `\"` `\'` `\\` `\n` `\t` decoded; `text` is the source, quotes included. */
export interface QuotedToken extends Span {
  readonly kind: 'quoted';
  readonly value: string;
  readonly text: string;
}

/** /…/: `value` is the regexp between the delimiters, with `\/` turned into `/`. */
export interface RegexpToken extends Span {
  readonly kind: 'regexp';
  readonly value: string;
  readonly text: string;
}

export interface FilterToken extends Span {
  readonly kind: 'filter';
  /** Lower-cased field name as written, without the leading `-`. */
  readonly field: string;
  readonly negated: boolean;
  /** Quoted values are decoded like QuotedToken.value. */
  readonly value: string;
  readonly quoted: boolean;
  readonly valueStart: number;
}

export type PatternToken = WordToken | QuotedToken | RegexpToken;
export type Token = ParenToken | OperatorToken | PatternToken | FilterToken;

export function isPatternToken(token: Token): token is PatternToken {
  return token.kind === 'word' || token.kind === 'quoted' || token.kind === 'regexp';
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\\': '\\', n: '\n', t: '\t' };
const FIELD_PREFIX = /-?([A-Za-z][A-Za-z0-9_]*):/y;
/**
 * An unknown `name:value` is only taken for a (bad) filter when the value starts like one; this keeps
 * `std::vector`, `http://x`, `C:\dir` and `host:8080` usable as plain pattern words.
 */
const FILTER_LIKE_VALUE_START = /^[A-Za-z"']$/;

export function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (isSpace(text[pos])) {
      pos++;
      continue;
    }
    const token = lexOne(text, pos);
    tokens.push(token);
    pos = token.end;
  }
  return tokens;
}

function lexOne(text: string, start: number): Token {
  const ch = text[start];
  // `()` is a pattern (a call with no arguments), not an empty group; so is a balanced group that
  // runs straight into more pattern text, like the regex `(get|set)Value`.
  if (ch === '(' && text[start + 1] !== ')' && !groupContinuesWord(text, start)) return { kind: 'lparen', start, end: start + 1 };
  if (ch === ')') return { kind: 'rparen', start, end: start + 1 };
  if (ch === '"' || ch === "'") {
    const { value, end } = readQuoted(text, start);
    return { kind: 'quoted', value, text: text.slice(start, end), start, end };
  }
  const token = (ch === '/' ? lexRegexp(text, start) : null) ?? lexFilter(text, start);
  if (token) return token;
  const end = scanBare(text, start);
  const word = text.slice(start, end);
  const lower = word.toLowerCase();
  if (lower === 'and' || lower === 'or' || lower === 'not') return { kind: lower, start, end };
  return { kind: 'word', text: word, start, end };
}

function readQuoted(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      value += QUOTE_ESCAPES[next] ?? `\\${next}`;
      continue;
    }
    value += c;
  }
  throw syntaxError('unterminated quoted string', start);
}

/**
 * A `/` token is a regexp only when a closing unescaped `/` ends the whole token and something lies
 * between the delimiters; otherwise it is a word (`/usr/bin`, `//`, `/api`). An unclosed token that
 * contains `\/` can only have meant a regexp, so it is reported as unterminated.
 */
function lexRegexp(text: string, start: number): RegexpToken | null {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      value += next === '/' ? '/' : c + next;
      continue;
    }
    if (c === '/') {
      const end = i + 1;
      if (value === '' || !isBoundary(text, end)) return null;
      return { kind: 'regexp', value, text: text.slice(start, end), start, end };
    }
    value += c;
  }
  if (text.slice(start, scanBare(text, start)).includes('\\/')) {
    throw syntaxError('unterminated regular expression', start);
  }
  return null;
}

function lexFilter(text: string, start: number): FilterToken | null {
  FIELD_PREFIX.lastIndex = start;
  const match = FIELD_PREFIX.exec(text);
  if (!match) return null;
  const field = match[1]!.toLowerCase();
  const valueStart = start + match[0].length;
  const first = text[valueStart] ?? '';
  if (!isKnownFieldName(field) && !FILTER_LIKE_VALUE_START.test(first)) return null;
  const negated = text[start] === '-';
  if (first === '"' || first === "'") {
    const { value, end } = readQuoted(text, valueStart);
    return { kind: 'filter', field, negated, value, quoted: true, valueStart, start, end };
  }
  const end = scanBare(text, valueStart);
  return { kind: 'filter', field, negated, value: text.slice(valueStart, end), quoted: false, valueStart, start, end };
}

/**
 * End of an unquoted run. Parentheses opened inside the run belong to it (`foo(bar)`), a `)` that
 * closes nothing ends it (`(foo)`), and a backslash keeps the next character, even a space (`foo\ bar`).
 */
function scanBare(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (isSpace(c)) break;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
    i++;
  }
  return Math.min(i, text.length);
}

/** True when the group opened at `start` closes before any space and is followed by pattern text. */
function groupContinuesWord(text: string, start: number): boolean {
  let depth = 0;
  for (let i = start; i < text.length && !isSpace(text[i]); i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return !isBoundary(text, i + 1);
  }
  return false;
}

function isBoundary(text: string, pos: number): boolean {
  return pos >= text.length || isSpace(text[pos]) || text[pos] === ')';
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}
