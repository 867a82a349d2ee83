/**
 * The prepared-query cache: large documents weigh by their tokens, so a stream of distinct
 * 10,000-token documents cannot fill memory; small ones still hit; the later steps run once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompiledQueryCache } from '../../../src/api/graphql/compiled-queries.js';
import { createSchema } from '../../../src/api/graphql/schema.js';
import { duplicateFlood } from './hostile-documents.js';

test('the cache holds documents up to its weight in tokens, however few entries that is', () => {
  const cache = createCompiledQueryCache(createSchema(), 500, 25_000);
  for (let i = 0; i < 10; i++) assert.equal(cache.prepare(duplicateFlood(9990 - i), null).kind, 'measured');
  assert.equal(cache.size, 2);
  for (let i = 0; i < 100; i++) cache.prepare(`{ site { siteID } } # ${i}`, null);
  assert.equal(cache.size, 102);
  const misses = cache.misses;
  cache.prepare('{ site { siteID } } # 5', null);
  assert.deepEqual([cache.misses, cache.size], [misses, 102]);
});

test('validation and compilation run once per cached document', () => {
  const cache = createCompiledQueryCache(createSchema());
  const prepared = cache.prepare('{ site { siteID } }', null);
  assert.equal(prepared.kind, 'measured');
  if (prepared.kind !== 'measured') return;
  assert.equal(prepared.validate(), prepared.validate());
  const compiled = prepared.compile();
  assert.equal(compiled.kind, 'compiled');
  assert.equal(cache.prepare('{ site { siteID } }', null), prepared);
  assert.equal(prepared.compile(), compiled);
});

test('a syntax error and a refused size are cached answers, not exceptions', () => {
  const cache = createCompiledQueryCache(createSchema());
  const syntax = cache.prepare('{ site {', null);
  assert.equal(syntax.kind === 'invalid' && syntax.errors[0]?.message, 'Syntax Error: Expected Name, found <EOF>.');
  const query = `# ${'x'.repeat(300_000)}\n{ site { siteID } }`;
  assert.deepEqual(cache.prepare(query, null), { kind: 'refused', message: `query exceeds maximum query cost: ${query.length} characters, at most 262144; pass large values as variables` });
});
