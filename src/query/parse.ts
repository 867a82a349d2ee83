/**
 * Entry point of the query language: text to `Query` (lex, boolean structure, pattern type, filter
 * scoping). Checks structure only; whether a regexp compiles is decided by the pattern compiler.
 */
import type { PatternType, Query } from './ast.js';
import { buildFilters } from './build-filters.js';
import { canonicalField } from './fields.js';
import { patternTypeOf } from './filter-values.js';
import { lex, type Token } from './lex.js';
import { checkPatternTokens, checkQueryPatterns, checkQueryText } from './limits.js';
import { expand } from './scope.js';
import { parseSyntax } from './syntax.js';
import { syntaxError } from './syntax-error.js';

export interface ParseOptions {
  /** Used when the query has no patterntype: filter; 'keyword' when absent (Sourcegraph ≥ 5.4). */
  readonly defaultPatternType?: PatternType;
}

/**
 * Throws QuarryError QUERY_SYNTAX for malformed text and QUERY_UNSUPPORTED for Sourcegraph syntax
 * Quarry does not implement or a query past the limits of limits.ts; `details.position` is the
 * 0-based offset of the problem.
 */
export function parseQuery(text: string, opts: ParseOptions = {}): Query {
  checkQueryText(text);
  const tokens = lex(text);
  const patternType = queryPatternType(tokens, opts.defaultPatternType ?? 'keyword');
  checkPatternTokens(tokens, patternType);
  const tree = parseSyntax(tokens);
  const alternatives = tree === null ? [{ clauses: [], pattern: null }] : expand(tree, { source: text, patternType });
  const query: Query = {
    basics: alternatives.map((alternative) => ({
      filters: buildFilters(alternative.clauses, patternType),
      pattern: alternative.pattern,
    })),
  };
  checkQueryPatterns(query);
  return query;
}

/** patterntype: decides how every word is read, so it applies to the whole query wherever it stands. */
function queryPatternType(tokens: readonly Token[], fallback: PatternType): PatternType {
  let chosen: PatternType | null = null;
  for (const token of tokens) {
    if (token.kind !== 'filter' || canonicalField(token.field) !== 'patterntype' || token.value === '') continue;
    const patternType = patternTypeOf(token);
    if (chosen !== null && chosen !== patternType) throw syntaxError('conflicting patterntype: filters', token.start);
    chosen = patternType;
  }
  return chosen ?? fallback;
}
