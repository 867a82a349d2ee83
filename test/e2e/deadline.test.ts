/**
 * No pattern can hang the service: a catastrophically backtracking regex (a backreference, so
 * only the JS engine can run it) is stopped at the query deadline by terminating its worker;
 * the search answers with partial results and a timeout notice, and the next search works.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from './engine-fixture.js';

let source = '';
let fixture: EngineFixture;

before(async () => {
  source = makeTempDir('quarry-deadline');
  initRepo(source);
  writeFiles(source, { 'evil.txt': `${'a'.repeat(40)}\n`, 'fine.txt': 'calm content\n' });
  commitAll(source, 'evil');
  fixture = await createEngineFixture({ threads: 1 });
  await addAndIndex(fixture, 'example.com/deadline', source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test('a runaway backtracking regex is cut off at the deadline and the service keeps serving', async () => {
  const started = Date.now();
  const response = await fixture.engine.search.search({ query: 'type:file timeout:500ms patterntype:regexp (a)a*a*a*a*a*a*a*a*a*a*a*a*\\1x' });
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 5000, `answered in ${elapsed} ms`);
  assert.equal(response.stats.shardsTimedOut, 1);
  assert.ok(response.skipped.some((s) => s.reason === 'shard-timeout'));
  const after = await fixture.engine.search.search({ query: 'type:file calm' });
  assert.deepEqual(after.matches.map((m) => ('path' in m ? m.path : '')), ['fine.txt']);
});
