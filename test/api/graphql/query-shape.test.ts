/**
 * The linear steps before validation, on documents whose answers can be counted by hand: the
 * memoised shape (fragment bombs, cycles, duplicates contributed by fragments, searches), the
 * merge-comparison count, the text size check and the body nesting check.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { measureQueryCost } from '../../../src/api/graphql/cost.js';
import { checkDocumentSize, MAX_QUERY_NESTING, MAX_QUERY_TOKENS } from '../../../src/api/graphql/document-size.js';
import { countMergeComparisons } from '../../../src/api/graphql/merge-comparisons.js';
import { shapeDocument } from '../../../src/api/graphql/query-shape.js';
import { MAX_BODY_NESTING, readGraphQLParams } from '../../../src/api/graphql/request-body.js';
import { fragmentBomb } from './hostile-documents.js';

test('a depth-39 fragment bomb is measured exactly, in milliseconds', () => {
  const document = parse(fragmentBomb(39, 2));
  const started = performance.now();
  const cost = measureQueryCost(document, null);
  const shape = shapeDocument(document, null);
  assert.ok(performance.now() - started < 500, `${performance.now() - started} ms`);
  // currentUser, then 2^39 usernames merged into its selection set.
  assert.deepEqual(cost, { depth: 2, aliases: 0, fields: 1 + 2 ** 39, duplicates: 2 ** 39 - 1, uniqueFields: 2 });
  // Selections count the 2^40 - 1 spreads too.
  assert.equal(shape.expandedSelections, 1 + 2 ** 39 + 2 ** 40 - 1);
});

test('fragment cycles are cut where they close instead of looping', () => {
  const document = parse('{ currentUser { ...A } } fragment A on User { username ...B } fragment B on User { ...A ...A email }');
  const cost = measureQueryCost(document, null);
  assert.deepEqual(cost, { depth: 2, aliases: 0, fields: 3, duplicates: 0, uniqueFields: 3 });
  const self = parse('{ currentUser { ...S } } fragment S on User { ...S ...S }');
  assert.equal(measureQueryCost(self, null).fields, 1);
});

test('duplicates count what fragments contribute to a selection set, and only there', () => {
  const cost = (q: string): number => measureQueryCost(parse(q), null).duplicates;
  assert.equal(cost('{ a { x ...F } } fragment F on T { x y }'), 1);
  assert.equal(cost('{ a { ...F ...F } } fragment F on T { x y }'), 2);
  assert.equal(cost('{ a { ... on T { x } x } }'), 1);
  // Same key in different selection sets is no duplicate.
  assert.equal(cost('{ a { x } b { x } }'), 0);
  assert.equal(cost('{ a { b { ...F } } c { ...F } } fragment F on T { x y }'), 0);
});

test('searches: one per search field, or one per results under it, through fragments and aliases', () => {
  const searches = (q: string): number | undefined => shapeDocument(parse(q), null).operation?.searches;
  assert.equal(searches('{ search(query: "a") { results { matchCount } } }'), 1);
  assert.equal(searches('{ a: search(query: "a") { results { matchCount } } b: search(query: "b") { results { matchCount } } }'), 2);
  assert.equal(searches('{ search(query: "a") { x: results { matchCount } y: results { limitHit } } }'), 2);
  assert.equal(searches('{ ...Q ...Q } fragment Q on Query { search(query: "a") { ...R } } fragment R on Search { results { matchCount } }'), 2);
  assert.equal(searches('{ site { siteID } }'), 0);
});

test('merge comparisons: same-key field pairs per merged selection set, and fragment pairs', () => {
  const count = (q: string): number => countMergeComparisons(parse(q), Infinity);
  assert.equal(count('{ a { x y } b { x } }'), 0);
  assert.equal(count('{ a { x } a { x } }'), 2);
  assert.equal(count('{ x x x }'), 3);
  assert.equal(count('{ a { ...F ...G } } fragment F on T { x } fragment G on T { y }'), 1);
  // A fragment spread twice into one selection set is collected once, as graphql-js does.
  assert.equal(count('{ a { ...F ...F } } fragment F on T { x }'), 0);
  assert.ok(countMergeComparisons(parse(`{ ${'x '.repeat(2000)}}`), 10) > 10);
});

test('the text check counts tokens as the parser does and refuses past the bounds', () => {
  const fields = (n: number): string => `{ ${'a '.repeat(n - 2)}}`;
  assert.deepEqual(checkDocumentSize(fields(MAX_QUERY_TOKENS)), { ok: true, tokens: MAX_QUERY_TOKENS });
  assert.doesNotThrow(() => parse(fields(MAX_QUERY_TOKENS), { maxTokens: MAX_QUERY_TOKENS }));
  const over = checkDocumentSize(fields(MAX_QUERY_TOKENS + 1));
  assert.deepEqual(over, { ok: false, refusal: 'query exceeds maximum query cost: more than 10000 tokens; split it into smaller queries' });
  // Comments and strings are not tokens; brackets inside them do not nest.
  assert.equal((checkDocumentSize(`# {{{{\n{ a(s: "${'['.repeat(1000)}") }`) as { tokens: number }).tokens, 8);
  const deep = (n: number): string => `{${'a{'.repeat(n - 1)}b${'}'.repeat(n)}`;
  assert.equal(checkDocumentSize(deep(MAX_QUERY_NESTING)).ok, true);
  assert.deepEqual(checkDocumentSize(deep(MAX_QUERY_NESTING + 1)), { ok: false, refusal: 'query exceeds maximum query cost: brackets nest more than 256 levels deep' });
  const syntax = checkDocumentSize('{ a(s: "unterminated) }');
  assert.ok('syntax' in syntax && /^Syntax Error: Unterminated string/.test(syntax.syntax.message));
});

test('body nesting is refused before JSON.parse, brackets inside strings aside', () => {
  const refusal = { status: 400, message: 'request body nests too deeply: more than 64 levels of arrays and objects' };
  const nested = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
  // The body object is one level, variables a second, so the value may nest 62 more.
  const body = (n: number): string => `{"query":"{ a }","variables":{"v":${nested(n)}}}`;
  assert.equal('query' in readGraphQLParams(body(MAX_BODY_NESTING - 2)), true);
  assert.deepEqual(readGraphQLParams(body(MAX_BODY_NESTING - 1)), refusal);
  assert.deepEqual(readGraphQLParams(Buffer.from(body(100_000))), refusal);
  assert.deepEqual(readGraphQLParams(`{"query":"{ a }","variables":{"v":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`), refusal);
  const quoted = readGraphQLParams(JSON.stringify({ query: '{ a }', variables: { s: '[{'.repeat(1000), t: 'a\\"[[' } }));
  assert.deepEqual(quoted, { query: '{ a }', variables: { s: '[{'.repeat(1000), t: 'a\\"[[' }, operationName: null });
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.deepEqual(readGraphQLParams({ query: '{ a }', variables: { v: deep } }), refusal);
});
