/**
 * fast-check generators for the query language, weighted toward what hurts engines: nested and
 * adjacent quantifiers, optional runs, counted repetitions up to RE2's limits, wide alternations,
 * backreferences and look-around (JS only), odd Unicode, in every place a query holds a pattern.
 */
import fc from 'fast-check';

const LETTERS = fc.constantFrom('a', 'x', 'A', 'é', 'ß', '\u212a', '_', '0', ' ', '.', '-', '/');

/** RE2-syntax regular expressions, small but structurally hostile. */
export const regexArb: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string; piece: string }>((tie) => ({
  atom: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'regex' },
    { weight: 4, arbitrary: LETTERS },
    { weight: 2, arbitrary: fc.constantFrom('.', '\\w', '\\s', '\\d', '[a-z]', '[^x]', '\\pL', '\\p{Greek}', '[[:alpha:]]', '\\b', '^', '$') },
    { weight: 2, arbitrary: tie('re').map((r) => `(${r})`) },
    { weight: 1, arbitrary: tie('re').map((r) => `(?:${r})`) },
    { weight: 1, arbitrary: fc.constantFrom('\\1', '(?=a)', '(?<!x)', '(?i)', '(?s)') },
  ),
  piece: fc.tuple(tie('atom'), fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{0,40}', '{1000}', '{3,}', '*?', '+?')).map(([a, q]) => a + q),
  re: fc.oneof(
    { weight: 3, arbitrary: fc.array(tie('piece'), { minLength: 1, maxLength: 6 }).map((p) => p.join('')) },
    { weight: 1, arbitrary: fc.array(tie('piece'), { minLength: 2, maxLength: 5 }).map((p) => p.join('|')) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 120 }), LETTERS).map(([n, c]) => `${c}?`.repeat(n) + c.repeat(n)) },
  ),
})).re;

const literalArb = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_.]{0,12}$/);

/** A whole query: patterns and filters joined by spaces, AND, OR, NOT and parentheses. */
export const queryArb: fc.Arbitrary<string> = fc.letrec<{ query: string; term: string }>((tie) => ({
  term: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'query' },
    { weight: 4, arbitrary: literalArb },
    { weight: 4, arbitrary: regexArb.map((r) => `/${r}/`) },
    { weight: 1, arbitrary: regexArb.map((r) => `repo:${JSON.stringify(r)}`) },
    { weight: 1, arbitrary: regexArb.map((r) => `file:${JSON.stringify(r)}`) },
    { weight: 1, arbitrary: regexArb.map((r) => `-file:${JSON.stringify(r)}`) },
    { weight: 1, arbitrary: fc.constantFrom('type:commit', 'type:diff', 'type:repo', 'type:symbol', 'type:path', 'select:repo', 'case:yes', 'count:all', 'fork:yes') },
    { weight: 1, arbitrary: regexArb.map((r) => `message:${JSON.stringify(r)}`) },
    { weight: 1, arbitrary: regexArb.map((r) => `author:${JSON.stringify(r)}`) },
    { weight: 1, arbitrary: fc.constantFrom('lang:go', 'lang:python', 'rev:HEAD', 'rev:*refs/heads/*', 'after:"1 year ago"', 'patterntype:regexp', 'patterntype:literal') },
    { weight: 1, arbitrary: tie('query').map((q) => `(${q})`) },
    { weight: 1, arbitrary: tie('term').map((t) => `NOT ${t}`) },
  ),
  query: fc.array(fc.tuple(fc.constantFrom(' ', ' AND ', ' OR ', ' '), tie('term')), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.map(([op, term], i) => (i === 0 ? term : op + term)).join('')),
})).query;
