/**
 * The ASCII fast path: pure-ASCII documents are scanned with the patterns' ASCII-only Hyperscan
 * forms, other documents with the full forms, and both find exactly what the JS engine finds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemorySource, packMemoryDocs } from '../../src/index/memory-source.js';
import { compileCached } from '../../src/pool/matchers.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import { unpackLines } from '../../src/shard/packed-lines.js';
import { searchShard } from '../../src/shard/search-shard.js';

const docs = packMemoryDocs([
  { path: 'ascii.txt', content: Buffer.from('Kit and kit\nnothing here\n') },
  { path: 'kelvin.txt', content: Buffer.from('\u212Ait with a Kelvin sign\n') },
  { path: 'none.txt', content: Buffer.from('plain ascii without the word\n') },
]);

function run(query: string, matcher: 'auto' | 'js'): string[] {
  const plan = planBasicQuery(parseQuery(query).basics[0]!, { matcher });
  const source = createMemorySource(docs);
  const result = searchShard({ source, plan, lo: 0, hi: source.docCount, deleted: new Set(), limit: Infinity, deadline: Date.now() + 10_000, stop: null, compile: compileCached });
  return result.files.flatMap((f) => unpackLines(f.lines).map((l) => `${f.path}:${l.lineNumber}:${JSON.stringify(l.offsetAndLengths)}`));
}

test('a case-insensitive class matches the Kelvin sign in non-ASCII text and plain k in ASCII text', () => {
  const query = 'type:file patterntype:regexp [j-l]it';
  const plan = planBasicQuery(parseQuery(query).basics[0]!, { matcher: 'auto' });
  assert.notEqual(plan.asciiPatterns, null, 'the pattern has an ASCII-only form');
  const expected = ['ascii.txt:0:[[0,3],[8,3]]', 'kelvin.txt:0:[[0,3]]'];
  assert.deepEqual(run(query, 'auto'), expected);
  assert.deepEqual(run(query, 'js'), expected);
});
