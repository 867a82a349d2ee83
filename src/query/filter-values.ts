/**
 * Meaning of one `field:value` token (reference §2.7): checks the value and turns it into a typed
 * clause, a content pattern atom, or nothing (global and ignored filters). Knows nothing of scope.
 */
import type { PatternAtom, PatternType, RepoFilter, ResultType, SelectKind, YesNoOnly } from './ast.js';
import { parseGoDurationMs } from './duration.js';
import { NEGATABLE_FIELDS, canonicalField, isUnsupportedField, type FilterField } from './fields.js';
import { resolveLanguage } from './languages.js';
import type { FilterToken } from './lex.js';
import { atom } from './patterns.js';
import { syntaxError, unsupportedError } from './syntax-error.js';

interface Positioned {
  /** Offset of the filter token, for errors found once clauses are combined. */
  readonly position: number;
}

export type FilterClause = Positioned &
  (
    | { readonly kind: 'repo'; readonly repo: RepoFilter }
    | { readonly kind: 'rev'; readonly revs: readonly string[] }
    | { readonly kind: 'file'; readonly pattern: string; readonly negated: boolean }
    | { readonly kind: 'lang'; readonly name: string; readonly negated: boolean }
    | { readonly kind: 'case'; readonly caseSensitive: boolean }
    | { readonly kind: 'type'; readonly type: ResultType }
    | { readonly kind: 'count'; readonly count: number | 'all' }
    | { readonly kind: 'timeout'; readonly timeoutMs: number }
    | { readonly kind: 'select'; readonly select: SelectKind }
    | { readonly kind: 'fork' | 'archived'; readonly value: YesNoOnly }
    | { readonly kind: 'author' | 'committer' | 'message'; readonly pattern: string; readonly negated: boolean }
    | { readonly kind: 'before' | 'after'; readonly date: string }
  );

/** `global`: patterntype: (applied to the whole query beforehand), visibility:, context:global. */
export type FilterMeaning =
  | { readonly kind: 'clause'; readonly clause: FilterClause }
  | { readonly kind: 'pattern'; readonly atom: PatternAtom }
  | { readonly kind: 'global' };

const MAX_TIMEOUT_MS = 60_000;
const RESULT_TYPES: readonly ResultType[] = ['file', 'path', 'repo', 'symbol', 'commit', 'diff'];
const PATTERN_TYPES: readonly PatternType[] = ['keyword', 'standard', 'literal', 'regexp'];
const SYMBOL_KINDS: ReadonlySet<string> = new Set([
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor',
  'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array',
  'object', 'key', 'null', 'enum-member', 'struct', 'event', 'operator', 'type-parameter',
]);
const PREDICATE = /^(has|contains)(\.[a-z]+)+\(/i;

/** `negated` is the token's own `-` combined with any enclosing NOT. */
export function interpretFilter(token: FilterToken, negated: boolean, patternType: PatternType): FilterMeaning {
  const field = checkedField(token, negated);
  const position = token.start;
  const clause = (body: DistributiveOmit<FilterClause, 'position'>): FilterMeaning =>
    ({ kind: 'clause', clause: { ...body, position } as FilterClause });
  const value = token.value;
  switch (field) {
    case 'repo':
      return clause({ kind: 'repo', repo: repoFilter(token, negated) });
    case 'rev':
      if (/^at\.time\(/i.test(value)) throw unsupportedError('the rev:at.time() predicate is not supported', token.valueStart);
      return clause({ kind: 'rev', revs: revisions(value, token.valueStart) });
    case 'file':
      rejectPredicate(token);
      return clause({ kind: 'file', pattern: value, negated });
    case 'lang': {
      const name = resolveLanguage(value);
      if (name === null) throw syntaxError(`unknown language "${value}"`, token.valueStart);
      return clause({ kind: 'lang', name, negated });
    }
    case 'content':
      return { kind: 'pattern', atom: { ...atom(value, patternType === 'regexp', 'content'), negated } };
    case 'case':
      return clause({ kind: 'case', caseSensitive: oneOf(token, ['yes', 'no']) === 'yes' });
    case 'type':
      return clause({ kind: 'type', type: oneOf(token, RESULT_TYPES) });
    case 'count':
      return clause({ kind: 'count', count: countValue(token) });
    case 'timeout':
      return clause({ kind: 'timeout', timeoutMs: timeoutValue(token) });
    case 'select':
      return clause({ kind: 'select', select: selectValue(token) });
    case 'fork':
    case 'archived':
      return clause({ kind: field, value: oneOf(token, ['yes', 'no', 'only'] as const) });
    case 'author':
    case 'committer':
    case 'message':
      return clause({ kind: field, pattern: value, negated });
    case 'before':
    case 'after':
      return clause({ kind: field, date: value });
    case 'patterntype':
      // Already read by parse.ts before any pattern was built: it decides how words are read.
      return { kind: 'global' };
    case 'visibility':
      // Accepted for compatibility and ignored: Quarry has no private/public repository distinction.
      oneOf(token, ['any', 'public', 'private']);
      return { kind: 'global' };
    case 'context':
      // Only the implicit global context exists; Quarry has no search contexts.
      if (value.toLowerCase() !== 'global') throw unsupportedError('search contexts other than context:global are not supported', token.valueStart);
      return { kind: 'global' };
  }
}

/** Value of a `patterntype:` (or `patternType:`) filter token. */
export function patternTypeOf(token: FilterToken): PatternType {
  const value = token.value.toLowerCase();
  if (['structural', 'lucky', 'codycontext'].includes(value)) {
    throw unsupportedError(`patterntype:${value} is not supported`, token.valueStart);
  }
  return value === 'regex' ? 'regexp' : oneOf(token, PATTERN_TYPES);
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

function checkedField(token: FilterToken, negated: boolean): FilterField {
  const field = canonicalField(token.field);
  if (field === null) {
    if (isUnsupportedField(token.field)) throw unsupportedError(`filter "${token.field}:" is not supported`, token.start);
    throw syntaxError(`unknown filter field "${token.field}"`, token.start);
  }
  if (token.value === '') throw syntaxError(`empty value for filter "${token.field}:"`, token.valueStart);
  if (negated && !NEGATABLE_FIELDS.has(field)) throw syntaxError(`filter "${token.field}:" cannot be negated`, token.start);
  return field;
}

function oneOf<T extends string>(token: FilterToken, allowed: readonly T[]): T {
  const value = token.value.toLowerCase();
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    throw syntaxError(`invalid value "${token.value}" for "${token.field}:" (expected ${allowed.join('|')})`, token.valueStart);
  }
  return found;
}

function repoFilter(token: FilterToken, negated: boolean): RepoFilter {
  rejectPredicate(token);
  const at = token.value.indexOf('@');
  const pattern = at < 0 ? token.value : token.value.slice(0, at);
  if (pattern === '') throw syntaxError('empty repository pattern before "@"', token.valueStart);
  if (at < 0) return { pattern, negated, revs: [] };
  if (negated) throw syntaxError('an excluded repository cannot name revisions', token.valueStart);
  return { pattern, negated, revs: revisions(token.value.slice(at + 1), token.valueStart) };
}

/** `a:b:c` names several revisions (reference §2.9). */
function revisions(text: string, position: number): string[] {
  const revs = text.split(':');
  if (revs.some((rev) => rev === '')) throw syntaxError('empty revision', position);
  return revs;
}

function rejectPredicate(token: FilterToken): void {
  const predicate = PREDICATE.exec(token.value);
  if (predicate) throw unsupportedError(`the ${token.field}:${predicate[0]}) predicate is not supported`, token.valueStart);
}

function countValue(token: FilterToken): number | 'all' {
  if (token.value.toLowerCase() === 'all') return 'all';
  const count = /^\d+$/.test(token.value) ? Number(token.value) : NaN;
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw syntaxError(`invalid count "${token.value}" (expected a positive integer or all)`, token.valueStart);
  }
  return count;
}

function timeoutValue(token: FilterToken): number {
  const ms = parseGoDurationMs(token.value);
  if (ms === null || ms <= 0) {
    throw syntaxError(`invalid timeout "${token.value}" (expected a positive duration such as 500ms, 10s, 1m)`, token.valueStart);
  }
  if (ms > MAX_TIMEOUT_MS) throw syntaxError(`timeout "${token.value}" is longer than the 60s maximum`, token.valueStart);
  // Whole milliseconds, rounded up so that a tiny positive timeout stays positive.
  return Math.ceil(ms);
}

function selectValue(token: FilterToken): SelectKind {
  const value = token.value.toLowerCase();
  if (value === 'file.path') return 'file';
  if (['repo', 'file', 'file.directory', 'content', 'symbol', 'commit.diff.added', 'commit.diff.removed'].includes(value)) return value as SelectKind;
  const kind = /^symbol\.(.+)$/.exec(value)?.[1];
  if (kind !== undefined && SYMBOL_KINDS.has(kind)) return `symbol.${kind}`;
  if (value === 'file.owners') throw unsupportedError(`select:${value} is not supported`, token.valueStart);
  throw syntaxError(`invalid value "${token.value}" for "${token.field}:"`, token.valueStart);
}
