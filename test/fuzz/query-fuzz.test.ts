/**
 * A seeded, time-bounded fuzz of the query language through the real engine (LMDB, git, the pool
 * and its compile guard): every query is answered, or refused with an error a user can act on,
 * within its deadline plus the compile budget; nothing crashes; the engine serves afterwards.
 * `scripts/fuzz` runs the same property longer with any seed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { isQuarryError, type ErrorCode } from '../../src/errors.js';
import { addAndIndex, createEngineFixture, matchedLines, type EngineFixture } from '../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { queryArb } from './query-arbitraries.js';

/** Errors that describe the query; anything else (INTERNAL, a crash) is a defect. */
const USER_ERRORS: readonly ErrorCode[] = ['QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_INVALID', 'PATTERN_UNSUPPORTED', 'TIMEOUT', 'REVISION_NOT_FOUND', 'INVALID_ARGUMENT'];
const SEED = Number(process.env['QUARRY_FUZZ_SEED'] ?? 20261124);
const SECONDS = Number(process.env['QUARRY_FUZZ_SECONDS'] ?? 25);
/** timeout:1s for the search, the compile guard's 2 s, and room for a busy machine. */
const ANSWER_WITHIN_MS = 8000;

let source = '';
let fixture: EngineFixture;

before(async () => {
  source = makeTempDir('quarry-fuzz');
  initRepo(source);
  writeFiles(source, {
    'a.go': 'package a\n\nfunc Alpha() string { return "aaaa xxxx" }\n',
    'b.py': 'def beta():\n    return "ÉÉé ß \u212a"\n',
    'lines.txt': 'x\n'.repeat(2000),
    'calm.txt': 'calm content\n',
  });
  commitAll(source, 'first: aaaa');
  git(source, 'commit', '--quiet', '--allow-empty', '--author=xxxx xxxx <xxxx@example.com>', '-m', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
  fixture = await createEngineFixture({ threads: 2 });
  await addAndIndex(fixture, 'example.com/fuzz', source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test(`random queries are answered or refused clearly, in bounded time (seed ${SEED}, ${SECONDS} s)`, async (t) => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(queryArb, async (query) => {
      runs++;
      const started = performance.now();
      try {
        await fixture.engine.search.search({ query: `timeout:1s ${query}` });
      } catch (err) {
        assert.ok(isQuarryError(err) && USER_ERRORS.includes(err.code), `${JSON.stringify(query)} threw ${isQuarryError(err) ? err.code : ''} ${String(err)}`);
      }
      const ms = performance.now() - started;
      assert.ok(ms < ANSWER_WITHIN_MS, `${JSON.stringify(query)} took ${ms.toFixed(0)} ms`);
    }),
    { seed: SEED, numRuns: 100_000, interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false },
  );
  t.diagnostic(`${runs} queries`);
  assert.ok(runs >= 20, `only ${runs} queries ran`);
  const calm = await fixture.engine.search.search({ query: 'calm' });
  assert.deepEqual(matchedLines(calm), ['calm.txt:1']);
});
