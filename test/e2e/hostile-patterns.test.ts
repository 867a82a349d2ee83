/**
 * Hostile patterns through the real engine (LMDB, git, the worker pool and its compile guard), in
 * every place a query puts a regular expression: the pattern, repo:, file:, and the commit fields
 * of type:commit and type:diff. Each is refused with an error that says why, or cut off at its
 * deadline, within a bounded time; the engine answers an ordinary search right after.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { addAndIndex, createEngineFixture, matchedLines, type EngineFixture } from './engine-fixture.js';

const REPO = `example.com/${'x'.repeat(40)}`;
/** Exponential for V8's RegExp compiler; Hyperscan calls it too large, so only JS could take it. */
const COMPILE_BOMB = `${'a?'.repeat(100)}${'a'.repeat(100)}`;
/** The pattern whose compile used to abort the whole process when its worker was terminated. */
const ABORTING_BOMB = `${'a?'.repeat(500)}${'a'.repeat(500)}`;
/** Exponential backtracking (a backreference keeps it off Hyperscan): refused before it runs. */
const BACKTRACKER = '(x+x+)+\\1y';
/** Polynomial backtracking, but of degree 12: 149 s for 26 x's in V8. It passes the check and meets the deadline. */
const POLYNOMIAL_BACKTRACKER = `(x)${'x*'.repeat(12)}\\1y`;

let source = '';
let fixture: EngineFixture;

before(async () => {
  source = makeTempDir('quarry-hostile');
  initRepo(source);
  writeFiles(source, { [`${'x'.repeat(60)}.txt`]: `${'x'.repeat(40)}\n`, 'calm.txt': 'calm content\n', 'lines.txt': 'x\n'.repeat(5000) });
  commitAll(source, 'calm commit message');
  git(source, 'commit', '--quiet', '--allow-empty', `--author=${'x'.repeat(30)} <${'x'.repeat(30)}@example.com>`, '-m', `${'x'.repeat(40)} commit message`);
  fixture = await createEngineFixture({ threads: 2 });
  await addAndIndex(fixture, REPO, source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

async function answer(query: string): Promise<{ ms: number; error: string | null; timedOut: boolean }> {
  const started = performance.now();
  try {
    const response = await fixture.engine.search.search({ query });
    return { ms: performance.now() - started, error: null, timedOut: response.skipped.some((s) => s.reason === 'shard-timeout') };
  } catch (err) {
    assert.ok(isQuarryError(err), `not a Quarry error: ${String(err)}`);
    return { ms: performance.now() - started, error: `${err.code}: ${err.message}`, timedOut: err.code === 'TIMEOUT' };
  }
}

async function assertCalm(): Promise<void> {
  const response = await fixture.engine.search.search({ query: 'calm' });
  assert.deepEqual(matchedLines(response), ['calm.txt:1']);
}

test('a pattern whose compile is exponential is refused, wherever it stands', async () => {
  for (const query of [
    `patterntype:regexp ${COMPILE_BOMB}`, `/${ABORTING_BOMB}/`, `repo:${COMPILE_BOMB} calm`, `file:${COMPILE_BOMB} calm`,
    `type:commit message:${COMPILE_BOMB}`, `type:commit /${COMPILE_BOMB}/`, `type:diff author:${COMPILE_BOMB} calm`,
  ]) {
    const { ms, error } = await answer(query);
    assert.match(error ?? '', /PATTERN_UNSUPPORTED: pattern too complex/, query.slice(0, 40));
    assert.ok(ms < 10_000, `${query.slice(0, 40)} answered in ${ms} ms`);
    await assertCalm();
  }
});

test('exponential backtracking is refused before it runs, wherever it stands', async () => {
  for (const query of [
    `patterntype:regexp ${BACKTRACKER}`, `repo:${BACKTRACKER} calm`, `file:${BACKTRACKER} calm`,
    `type:commit message:${BACKTRACKER}`, `type:commit author:${BACKTRACKER}`, `type:diff /${BACKTRACKER}/`,
  ]) {
    const { ms, error } = await answer(query);
    assert.match(error ?? '', /PATTERN_UNSUPPORTED: pattern too costly: .*repetition/, query);
    assert.ok(ms < 1000, `${query} answered in ${ms} ms`);
    await assertCalm();
  }
});

test('polynomial backtracking is cut off at the deadline, wherever it stands', async () => {
  for (const query of [
    `timeout:1s patterntype:regexp ${POLYNOMIAL_BACKTRACKER}`, `timeout:1s repo:${POLYNOMIAL_BACKTRACKER} calm`, `timeout:1s file:${POLYNOMIAL_BACKTRACKER} calm`,
    `timeout:1s type:commit message:${POLYNOMIAL_BACKTRACKER}`, `timeout:1s type:commit author:${POLYNOMIAL_BACKTRACKER}`,
  ]) {
    const { ms, error, timedOut } = await answer(query);
    assert.ok(timedOut || /TIMEOUT/.test(error ?? ''), `${query}: ${error}`);
    assert.ok(ms < 6000, `${query} answered in ${ms} ms`);
    await assertCalm();
  }
});

test('a query of thousands of terms is refused before any work', async () => {
  const { ms, error } = await answer(`${'x AND '.repeat(2000)}x`);
  assert.match(error ?? '', /QUERY_UNSUPPORTED: .*too many patterns/);
  assert.ok(ms < 1000, `answered in ${ms} ms`);
});

test('count:all collects at most search.limits.maxCount matches, one huge file included', async () => {
  const { store } = fixture.engine;
  updateSiteConfig(store, getSiteConfig(store).id, '{"search.limits.maxCount": 1000}');
  try {
    const response = await fixture.engine.search.search({ query: 'count:all patterntype:regexp x' });
    assert.equal(response.matchCount, 1000);
    assert.equal(response.limitHit, true);
  } finally {
    updateSiteConfig(store, getSiteConfig(store).id, '{}');
  }
});
