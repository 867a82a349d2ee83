/**
 * How much one query may ask for, checked before anything is planned or compiled: the main thread
 * plans every pattern and filter regex of a query (about 2 to 20 µs per character) and the workers
 * compile each set, so these bounds keep what one request costs small. Generous for people and
 * agents: Sourcegraph's own clients send queries of a few hundred characters.
 */
import type { BasicQuery, PatternExpr, PatternType, Query } from './ast.js';
import { isPatternToken, type Token } from './lex.js';
import { unsupportedError } from './syntax-error.js';

/** The whole query text. */
export const MAX_QUERY_CHARS = 16_384;
/** Pattern atoms and regex filter values (repo:, file:, author:, committer:, message:), over every alternative. */
export const MAX_QUERY_PATTERNS = 128;
/** Characters of regular expressions (patterns and filter values), over every alternative. */
export const MAX_REGEX_CHARS = 4_096;

export function checkQueryText(text: string): void {
  if (text.length > MAX_QUERY_CHARS) {
    throw unsupportedError(`too long: ${text.length} characters, at most ${MAX_QUERY_CHARS}; search for a shorter part of it`, MAX_QUERY_CHARS);
  }
}

/**
 * The fewest pattern atoms the tokens can make, checked before the query is built: building one
 * of thousands of terms takes the main thread tens of milliseconds, only to refuse it. Keyword
 * mode makes an atom of every pattern token; the other modes at least one of each run of
 * adjacent pattern tokens (filters between them aside), which AND, OR, NOT and groups end.
 */
export function checkPatternTokens(tokens: readonly Token[], patternType: PatternType): void {
  let atoms = 0;
  let inRun = false;
  for (const token of tokens) {
    if (token.kind === 'filter') continue;
    const pattern = isPatternToken(token);
    if (pattern && (patternType === 'keyword' || !inRun)) atoms++;
    inRun = pattern;
  }
  if (atoms > MAX_QUERY_PATTERNS) {
    throw unsupportedError(`too many patterns and filter values: at least ${atoms}, at most ${MAX_QUERY_PATTERNS}; split it into several searches`, 0);
  }
}

/**
 * Pattern atoms count once per alternative (each alternative plans and compiles its own); filter
 * values count once per distinct value, as distributing filters over an OR repeats them in each.
 */
export function checkQueryPatterns(query: Query): void {
  const filterValues = new Set<string>();
  let patterns = 0;
  let regexChars = 0;
  for (const basic of query.basics) {
    for (const { value, regexp } of atomsOf(basic.pattern)) {
      patterns++;
      if (regexp) regexChars += value.length;
    }
    for (const value of filterRegexes(basic)) filterValues.add(value);
  }
  patterns += filterValues.size;
  for (const value of filterValues) regexChars += value.length;
  if (patterns > MAX_QUERY_PATTERNS) {
    throw unsupportedError(`too many patterns and filter values: ${patterns}, at most ${MAX_QUERY_PATTERNS}; split it into several searches`, 0);
  }
  if (regexChars > MAX_REGEX_CHARS) {
    throw unsupportedError(`too much regular expression: ${regexChars} characters in patterns and filter values, at most ${MAX_REGEX_CHARS}; shorten them`, 0);
  }
}

function atomsOf(expr: PatternExpr | null): { value: string; regexp: boolean }[] {
  if (expr === null) return [];
  return expr.kind === 'atom' ? [expr] : expr.children.flatMap(atomsOf);
}

function filterRegexes(basic: BasicQuery): string[] {
  const { repos, files, commit } = basic.filters;
  return [
    ...repos.map((r) => r.pattern),
    ...files.map((f) => f.pattern),
    ...[...(commit?.authors ?? []), ...(commit?.committers ?? []), ...(commit?.messages ?? [])].map((v) => v.pattern),
  ];
}
