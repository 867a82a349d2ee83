/**
 * The caches diff search keeps across pages stay within their byte budgets on a repository whose
 * every commit is a huge matching diff, and searches through them still list exactly the commits
 * `git log -G` lists; the byte-bounded map itself evicts least recently used first.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ByteBudgetCache } from '../../src/history/byte-budget-cache.js';
import { ANSWER_CACHE_BYTES, answerCache, commitHitBytes } from '../../src/history/diff-answers.js';
import { MATCHING_CACHE_BYTES, matchingCache } from '../../src/history/diff-index-filter.js';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openHistoryIndexes, type HistoryIndexes } from '../../src/index/history/history-store.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { logG } from './history-fixture.js';

const COMMITS = 16;
/** Matching lines per commit: each hit holds some hundreds of kilobytes. */
const LINES = 4000;
const MIB = 1024 * 1024;

let root: string;
let gitDir: string;
let pool: EnginePool;
let indexes: HistoryIndexes;

before(async () => {
  root = makeTempDir('quarry-diff-answers');
  const work = initRepo(join(root, 'work'));
  gitDir = join(work, '.git');
  for (let c = 0; c < COMMITS; c++) {
    writeFiles(work, { [`f${c}.txt`]: Array.from({ length: LINES }, (_, i) => `needle ${c} line ${i} of a generated file`).join('\n') + '\n' });
    commitAll(work, `commit ${c}`);
  }
  pool = createInThreadEnginePool();
  indexes = openHistoryIndexes(join(root, 'data'));
  await updateHistoryIndex(indexes.of(1), gitDir, pool);
});

after(async () => {
  answerCache.resize(ANSWER_CACHE_BYTES);
  matchingCache.resize(MATCHING_CACHE_BYTES);
  await indexes.close();
  await pool.close();
  removeDir(root);
});

async function allPages(pattern: string, count: number): Promise<{ oids: string[]; biggest: number }> {
  const history = createDiffHistory(() => gitDir, pool, () => indexes.of(1));
  const oids: string[] = [];
  let biggest = 0;
  let start: number | null = 0;
  while (start !== null) {
    const page = await history.searchDiffs(['repo'], {
      pattern: compileDiffPattern(pattern, { regex: false, caseSensitive: false }), added: false, removed: false, metadata: null,
      after: null, before: null, revisions: [], count, deadline: Date.now() + 300_000,
      // As the MCP tool does: the page ends after the first hit, so the hits read past it wait in the cache.
      budgetFull: (hits) => hits.length > 1,
    }, start);
    assert.equal(page.timedOut, false);
    for (const { hit } of page.hits) biggest = Math.max(biggest, commitHitBytes(hit));
    oids.push(...page.hits.map((h) => h.hit.commit.oid));
    start = page.next;
  }
  return { oids, biggest };
}

test('matched huge diffs are cached within the byte budget, and pages still equal git log -G', async () => {
  const budget = 2 * MIB;
  answerCache.resize(budget);
  const first = await allPages('needle', 5);
  assert.deepEqual(first.oids, logG(gitDir, 'needle'));
  assert.equal(first.oids.length, COMMITS);
  assert.ok(first.biggest > budget / 8, `each hit is large (${first.biggest} bytes)`);
  assert.ok(answerCache.bytes <= budget, `${answerCache.bytes} bytes held against a budget of ${budget}`);
  assert.ok(answerCache.size > 0 && answerCache.size < COMMITS, `some answers kept, not all (${answerCache.size})`);
  // A budget smaller than one hit keeps none of them, and answers stay the same.
  answerCache.resize(first.biggest - 1);
  assert.ok(answerCache.bytes < first.biggest);
  assert.deepEqual((await allPages('needle', 3)).oids, first.oids);
  assert.ok(answerCache.bytes < first.biggest);
});

test('postings of many queries are cached within the byte budget', async () => {
  const budget = 8 * MIB;
  matchingCache.resize(budget);
  for (let c = 0; c < COMMITS; c++) assert.deepEqual((await allPages(`needle ${c} line`, 20)).oids, logG(gitDir, `needle ${c} line`));
  assert.ok(matchingCache.bytes <= budget, `${matchingCache.bytes} bytes held against a budget of ${budget}`);
  assert.ok(matchingCache.size > 0 && matchingCache.size < COMMITS);
});

test('the byte-bounded map drops the least recently used first, and keeps nothing over its budget', () => {
  const cache = new ByteBudgetCache<string, string>(10, (value) => value.length);
  cache.set('a', 'aaaa');
  cache.set('b', 'bbbb');
  assert.equal(cache.get('a'), 'aaaa');
  cache.set('c', 'cccc');
  assert.equal(cache.get('b'), undefined, 'b was least recently used');
  assert.equal(cache.get('a'), 'aaaa');
  assert.equal(cache.bytes, 8);
  cache.set('d', 'x'.repeat(11));
  assert.equal(cache.get('d'), undefined);
  assert.equal(cache.bytes, 8);
  cache.resize(4);
  assert.equal(cache.size, 1);
  assert.equal(cache.bytes, 4);
});
