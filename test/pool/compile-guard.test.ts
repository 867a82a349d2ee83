/**
 * The compile guard compiles every pattern set in a child process before any thread of ours does,
 * and refuses sets whose compile outlasts its time or memory budget: the child is killed, the
 * refusal is cached, and the guard keeps serving; a caller sending new costly patterns meets its
 * own budget of guard time.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { packTexts } from '../../src/history/text-batch.js';
import { createCompileGuard } from '../../src/pool/compile-guard.js';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import { planLiteral, planRegex } from '../../src/regex/index.js';

const guard = createCompileGuard({ budgetMs: 1000, memoryBytes: 2 ** 30 });
after(() => guard.close());

const spec = (source: string) => planRegex(source, { caseSensitive: false }).spec;

async function refusal(promise: Promise<void>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isQuarryError(err, 'PATTERN_UNSUPPORTED') || isQuarryError(err, 'PATTERN_INVALID'), String(err));
    return err.message;
  }
  assert.fail('the set was accepted');
}

test('ordinary sets pass, and a second look costs a cache lookup', async () => {
  await guard.vet([spec('foo.*bar'), planLiteral('baz', { caseSensitive: false }).spec], 'auto');
  const started = performance.now();
  await guard.vet([spec('foo.*bar'), planLiteral('baz', { caseSensitive: false }).spec], 'auto');
  assert.ok(performance.now() - started < 200);
});

test('a set whose compile takes exponential time is refused at the budget, and the guard keeps serving', async () => {
  // V8 spends 2^n steps compiling n optional items before n more (the engine falls back to JS:
  // Hyperscan finds the set too large).
  const started = performance.now();
  const message = await refusal(guard.vet([spec(`${'a?'.repeat(100)}${'a'.repeat(100)}`)], 'auto'));
  const elapsed = performance.now() - started;
  assert.match(message, /pattern too complex: compiling it did not finish within 1000 ms/);
  // The budget is the child's CPU time at a low priority: a loaded machine stretches its wall time.
  assert.ok(elapsed < 12_000, `answered in ${elapsed} ms`);
  const again = performance.now();
  await refusal(guard.vet([spec(`${'a?'.repeat(100)}${'a'.repeat(100)}`)], 'auto'));
  assert.ok(performance.now() - again < 200, 'the refusal is remembered');
  await guard.vet([spec('after\\s+the\\s+refusal')], 'auto');
});

test('the engines\' own refusals come back with their codes', async () => {
  assert.match(await refusal(guard.vet([{ hyperscan: null, js: '(', caseless: false }], 'js')), /pattern 0/);
  assert.match(await refusal(guard.vet([{ hyperscan: null, js: 'a(?<=b)', caseless: false }], 'hyperscan')), /no matcher engine/);
});

test('a child that grows past the memory budget is killed and the set refused', async () => {
  const tight = createCompileGuard({ budgetMs: 5000, memoryBytes: 16 * 2 ** 20 });
  try {
    // A few hundred milliseconds of compiling, so the memory watch looks while it runs.
    const words = Array.from({ length: 300 }, (_, i) => `identifier${i}Name`).join('|');
    assert.match(await refusal(tight.vet([spec(words)], 'auto')), /needed more than 16 MiB/);
  } finally {
    await tight.close();
  }
});

test('a caller sending new costly patterns spends its own share of guard time, not the others\'', async () => {
  const budgeted = createCompileGuard({ budgetMs: 300, memoryBytes: 2 ** 30, ownerMsPerMinute: 500 });
  try {
    const bomb = (n: number) => [spec(`${'a?'.repeat(n)}${'a'.repeat(n)}`)];
    assert.match(await refusal(budgeted.vet(bomb(60), 'auto', 'token:hostile')), /did not finish within 300 ms/);
    assert.match(await refusal(budgeted.vet(bomb(61), 'auto', 'token:hostile')), /did not finish within 300 ms/);
    // Two compiles of 300 ms CPU have overdrawn a bucket of 500 ms per minute.
    const started = performance.now();
    assert.match(await refusal(budgeted.vet(bomb(62), 'auto', 'token:hostile')), /too many costly new patterns from this caller.*try again in \d+ s/);
    assert.ok(performance.now() - started < 100, 'refused without compiling');
    await budgeted.vet([spec('another\\s+caller')], 'auto', 'token:ordinary');
    await budgeted.vet([spec('the\\s+cli')], 'auto');
    // The caller's refusal for lack of budget says nothing about the pattern: it is not remembered.
    assert.match(await refusal(budgeted.vet(bomb(62), 'auto', 'token:other')), /did not finish within 300 ms/);
  } finally {
    await budgeted.close();
  }
});

test('remembered verdicts stay within the characters of keys they may hold, the newest kept', async () => {
  const small = createCompileGuard({ budgetMs: 1000, memoryBytes: 2 ** 30, cacheKeyChars: 20_000 });
  try {
    const long = (i: number) => planLiteral(`${i}:${'q'.repeat(1000)}`, { caseSensitive: true }).spec;
    for (let i = 0; i < 60; i++) await small.vet([long(i)], 'auto');
    const { entries, keyChars } = small.cached;
    assert.ok(keyChars <= 20_000, `${keyChars} characters of keys held`);
    assert.ok(entries >= 5 && entries < 60, `${entries} verdicts held`);
    const started = performance.now();
    await small.vet([long(59)], 'auto');
    assert.ok(performance.now() - started < 200, 'the newest verdict is still a cache lookup');
  } finally {
    await small.close();
  }
});

test('a task whose patterns take long to check ends by its caller\'s deadline; the check goes on and is remembered', async () => {
  // The guard's budget is CPU time at a low priority: on a busy machine a costly set can take many
  // times the budget in wall time, which a caller who set a deadline must not wait for.
  const pool = createEnginePool({ threads: 1, compileGuard: { budgetMs: 4000 } });
  try {
    const costly = spec(`${'b?'.repeat(100)}${'b'.repeat(100)}`);
    const task = { ...packTexts(['bbbb']), specs: [costly], scope: null, ranges: false };
    const started = performance.now();
    await assert.rejects(pool.submit('text-match', { ...task, deadline: Date.now() + 200 }, { deadline: Date.now() + 200 }), (err) => isQuarryError(err, 'TIMEOUT') && /patterns were being checked/.test(err.message));
    const waited = performance.now() - started;
    assert.ok(waited < 3000, `the caller waited ${waited.toFixed(0)} ms, past its deadline plus the grace`);
    // The check ran on: later callers get its refusal, without having started one of their own.
    const givenUp = Date.now() + 4000 * 15;
    for (;;) {
      const error = await pool.submit('text-match', { ...task, deadline: Date.now() + 200 }, { deadline: Date.now() + 200 }).then(() => null, (err: unknown) => err);
      if (isQuarryError(error, 'PATTERN_UNSUPPORTED')) break;
      assert.ok(isQuarryError(error, 'TIMEOUT') && Date.now() < givenUp, `still no verdict: ${String(error)}`);
    }
  } finally {
    await pool.close();
  }
});
