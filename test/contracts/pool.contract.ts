/**
 * The pool contract: one suite every implementation of the pool seam (src/pool/pool.ts) must pass,
 * over the probe tasks (test/pool/probe-tasks.ts), plus the engine's tasks with known answers for
 * the implementations that serve them. Documented behaviour it pins: each kind answers with its
 * handler's result; a cancelled task rejects with ABORTED and a late one with TIMEOUT, before or
 * while it runs, and the next task is served; a handler's QuarryError keeps its code, any other
 * failure carries the kind's failure code; close() answers every unfinished task and every later
 * submit with ABORTED.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isQuarryError, type ErrorCode } from '../../src/errors.js';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { packDiffLines, searchedKinds } from '../../src/history/diff-lines.js';
import type { CommitDiff } from '../../src/history/diff-model.js';
import { packTexts } from '../../src/history/text-batch.js';
import { buildRun } from '../../src/index/build/run.js';
import { deflateRecord } from '../../src/index/history/record-codec.js';
import { TrigramExtractor } from '../../src/index/build/trigrams.js';
import { packMemoryDocs } from '../../src/index/memory-source.js';
import type { EnginePool, Pool } from '../../src/pool/pool.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import { unpackLines } from '../../src/shard/packed-lines.js';
import { decodeFileSymbols } from '../../src/symbols/codec.js';
import { HIGHLIGHT_CLASSES, HIGHLIGHT_MAX_BYTES } from '../../src/symbols/highlight.js';
import type { ProbeTasks } from '../pool/probe-tasks.js';

export interface PoolContractOptions {
  readonly name: string;
  /** A fresh pool over the probe tasks; each test closes its own. */
  readonly create: () => Pool<ProbeTasks>;
  /** The implementation's grace past a deadline (timing bounds allow for it). */
  readonly graceMs: number;
  /** False where a running computation cannot be stopped (the calling thread's own code). */
  readonly stopsRunningCode: boolean;
}

/** Slack for a loaded machine on top of any bound a test asserts. */
const SLACK_MS = 2500;
/** Long enough that only a stop, never the task's own end, can answer it within a test's bounds. */
const FOREVER_MS = 120_000;

function rejectsWith(code: ErrorCode, message?: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(isQuarryError(err, code), `expected QuarryError ${code}, got ${String(err)}`);
    if (message) assert.match(err.message, message);
    return true;
  };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) assert.fail('condition not reached in time');
    await sleep(5);
  }
}

async function withPool(options: PoolContractOptions, body: (pool: Pool<ProbeTasks>) => Promise<void>): Promise<void> {
  const pool = options.create();
  try {
    // One task per thread at once, so every thread has loaded its entry module before a test
    // stops one: a thread terminated while it loads never reports, and close() waits for it.
    await Promise.all(Array.from({ length: pool.threads }, () => pool.submit('wait', { ms: 100 })));
    await body(pool);
  } finally {
    await pool.close();
  }
}

/** Occupies every thread with a task that waits until released, once all of them run. */
async function fillThreads(pool: Pool<ProbeTasks>): Promise<{ release(): Promise<void> }> {
  const controller = new AbortController();
  const holders = Array.from({ length: pool.threads }, () => pool.submit('wait', { ms: FOREVER_MS }, { signal: controller.signal }));
  await until(() => pool.queueSize === 0);
  await sleep(50);
  return {
    async release() {
      controller.abort();
      for (const held of holders) await assert.rejects(held, rejectsWith('ABORTED'));
    },
  };
}

export function runPoolContract(options: PoolContractOptions): void {
  const test = (name: string, body: (pool: Pool<ProbeTasks>) => Promise<void>, skip?: string): void => {
    it(name, skip === undefined ? {} : { skip }, () => withPool(options, body));
  };
  const stopBound = options.graceMs + SLACK_MS;

  describe(`pool contract: ${options.name}`, () => {
    test('answers each kind with its handler\'s result', async (pool) => {
      assert.equal(await pool.submit('primes', { below: 10_000 }), 1229);
      const { sum, doubled } = await pool.submit('bytes', { data: Uint8Array.from([1, 2, 3]) });
      assert.equal(sum, 6);
      assert.deepEqual([...doubled], [2, 4, 6]);
      assert.equal(await pool.submit('wait', { ms: 5 }), 'waited 5 ms');
      assert.equal(await pool.submit('allocate', { mib: 4 }), 4);
    });

    test('runs as many tasks as it has threads and counts the others as waiting', async (pool) => {
      assert.ok(pool.threads >= 1);
      const tasks = Array.from({ length: pool.threads + 2 }, (_, i) => pool.submit('wait', { ms: 600 + i }));
      await until(() => pool.queueSize === 2);
      assert.deepEqual(await Promise.all(tasks), tasks.map((_, i) => `waited ${600 + i} ms`));
      assert.equal(pool.queueSize, 0);
    });

    test('refuses a task whose signal already aborted', async (pool) => {
      const started = Date.now();
      await assert.rejects(pool.submit('wait', { ms: FOREVER_MS }, { signal: AbortSignal.abort() }), rejectsWith('ABORTED', /^wait cancelled$/));
      assert.ok(Date.now() - started < SLACK_MS);
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('takes a waiting task out of the queue when its signal aborts', async (pool) => {
      const holders = await fillThreads(pool);
      const controller = new AbortController();
      const waiting = pool.submit('primes', { below: 100 }, { signal: controller.signal });
      await until(() => pool.queueSize === 1);
      controller.abort();
      await assert.rejects(waiting, rejectsWith('ABORTED'));
      assert.equal(pool.queueSize, 0);
      await holders.release();
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('stops a running task when its signal aborts, and serves the next', async (pool) => {
      const controller = new AbortController();
      const running = pool.submit('wait', { ms: FOREVER_MS }, { signal: controller.signal });
      await sleep(200);
      const aborted = Date.now();
      controller.abort();
      await assert.rejects(running, rejectsWith('ABORTED', /^wait cancelled$/));
      assert.ok(Date.now() - aborted < SLACK_MS);
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('gives a task whose deadline has passed no more than the grace period', async (pool) => {
      const submitted = Date.now();
      await assert.rejects(pool.submit('wait', { ms: FOREVER_MS }, { deadline: submitted - 60_000 }), rejectsWith('TIMEOUT'));
      assert.ok(Date.now() - submitted < stopBound);
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('times out a waiting task past its deadline', async (pool) => {
      const holders = await fillThreads(pool);
      const deadline = Date.now() + 200;
      await assert.rejects(pool.submit('primes', { below: 100 }, { deadline }), rejectsWith('TIMEOUT', /waited past its deadline/));
      assert.ok(Date.now() - deadline < stopBound);
      await holders.release();
    });

    test('stops a running task past its deadline, and serves the next', async (pool) => {
      const deadline = Date.now() + 200;
      await assert.rejects(pool.submit('wait', { ms: FOREVER_MS }, { deadline }), rejectsWith('TIMEOUT'));
      assert.ok(Date.now() - deadline < stopBound);
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('stops a computation past its deadline, and serves the next', async (pool) => {
      const deadline = Date.now() + 200;
      await assert.rejects(pool.submit('primes', { below: 1e12 }, { deadline }), rejectsWith('TIMEOUT'));
      assert.ok(Date.now() - deadline < stopBound);
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    }, options.stopsRunningCode ? undefined : 'code running on the calling thread cannot be stopped');

    test('lets a task that finishes within its deadline answer', async (pool) => {
      assert.equal(await pool.submit('primes', { below: 1000 }, { deadline: Date.now() + 30_000, signal: new AbortController().signal }), 168);
    });

    test('passes a handler\'s QuarryError on with its code and message', async (pool) => {
      await assert.rejects(pool.submit('fail', { code: 'PATTERN_INVALID', message: 'pattern 0: bad escape' }), (err) => {
        assert.ok(isQuarryError(err, 'PATTERN_INVALID'));
        assert.equal(err.message, 'pattern 0: bad escape');
        return true;
      });
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('gives any other failure the kind\'s failure code', async (pool) => {
      await assert.rejects(pool.submit('fail', { code: null, message: 'boom' }), rejectsWith('INTERNAL', /^probe failed: boom$/));
      assert.equal(await pool.submit('primes', { below: 100 }), 25);
    });

    test('close answers running and waiting tasks and later submits with ABORTED', async (pool) => {
      const running = Array.from({ length: pool.threads }, () => pool.submit('wait', { ms: FOREVER_MS }));
      const waiting = pool.submit('primes', { below: 100 });
      await until(() => pool.queueSize === 1);
      const closing = Date.now();
      const outcomes = Promise.allSettled([...running, waiting]);
      await pool.close();
      for (const outcome of await outcomes) {
        assert.equal(outcome.status, 'rejected');
        rejectsWith('ABORTED', /^the worker pool closed$/)(outcome.reason);
      }
      assert.ok(Date.now() - closing < SLACK_MS * 2);
      await assert.rejects(pool.submit('primes', { below: 100 }), rejectsWith('ABORTED', /^the worker pool closed$/));
    });
  });
}

export interface EnginePoolContractOptions {
  readonly name: string;
  readonly create: () => EnginePool;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The engine's tasks with answers known in advance: every implementation gives these. */
export function runEnginePoolContract(options: EnginePoolContractOptions): void {
  describe(`engine pool contract: ${options.name}`, () => {
    let pool: EnginePool;
    const deadline = (): number => Date.now() + 30_000;

    it('starts', () => {
      pool = options.create();
    });

    it('searches a shard of documents held in memory', async () => {
      const plan = planBasicQuery(parseQuery('needle').basics[0]!, { matcher: 'auto' });
      const docs = packMemoryDocs([
        { path: 'a.txt', content: encode('one\na needle here\nthree needle\n') },
        { path: 'b.txt', content: encode('nothing\n') },
        { path: 'needle.md', content: encode('x\n') },
      ]);
      const result = await pool.submit('shard', { source: { kind: 'memory', ...docs }, lo: 0, hi: 3, deleted: [], plan, limit: 100, deadline: deadline(), stop: null });
      assert.equal(result.timedOut, false);
      assert.equal(result.limitHit, false);
      const files = result.files.map((f) => ({ path: f.path, lines: unpackLines(f.lines).map((l) => [l.lineNumber, l.offsetAndLengths]), pathMatches: f.pathMatches }));
      assert.deepEqual(files.sort((a, b) => a.path.localeCompare(b.path)), [
        { path: 'a.txt', lines: [[1, [[2, 6]]], [2, [[6, 6]]]], pathMatches: [] },
        { path: 'needle.md', lines: [], pathMatches: [[0, 6]] },
      ]);
    });

    it('reports a shard it cannot open as crashed, not as a failed search', async () => {
      const plan = planBasicQuery(parseQuery('needle').basics[0]!, { matcher: 'auto' });
      await assert.rejects(
        pool.submit('shard', { source: { kind: 'segment', dir: '/nonexistent/quarry-segment' }, lo: 0, hi: 1, deleted: [], plan, limit: 10, deadline: deadline(), stop: null }),
        rejectsWith('SHARD_CRASHED', /^shard search failed: /),
      );
    });

    it('matches patterns over short texts, with ranges', async () => {
      const texts = ['github.com/org/alpha', 'github.com/org/beta', 'gitlab.com/x/alpha-beta'];
      const specs = [{ hyperscan: 'alpha', js: 'alpha', caseless: false }, { hyperscan: 'BE[^\\n]A', js: 'BE[^\\n]A', caseless: true }];
      const found = await pool.submit('text-match', { ...packTexts(texts), specs, scope: null, ranges: true, deadline: deadline() });
      assert.equal(found.timedOut, false);
      assert.deepEqual([...found.hits], [1, 0, 1, 0, 1, 1]);
      assert.deepEqual([...found.ranges], [0, 0, 15, 20, 0, 2, 13, 18, 1, 1, 15, 19, 1, 2, 19, 23]);
    });

    it('matches a diff pattern over changed lines', async () => {
      const line = (kind: '+' | '-', text: string) => ({ kind, text, oldLine: null, newLine: 1 });
      const hunk = { oldRange: { startLine: 1, lines: 1 }, newRange: { startLine: 1, lines: 1 }, section: '', lines: [line('-', 'old needle'), line('+', 'new'), line('+', 'needle, needle')], oldNoNewlineAtEnd: false, newNoNewlineAtEnd: false };
      const commit = { files: [{ oldPath: 'f', newPath: 'f', status: 'modified', binary: false, hunks: [hunk], added: 2, deleted: 1 }] } as unknown as CommitDiff;
      const task = { ...packDiffLines([commit]), pattern: compileDiffPattern('needle', { regex: false, caseSensitive: true }), searched: searchedKinds(false, false), deadline: deadline() };
      const matches = await pool.submit('diff-lines', task);
      assert.deepEqual([...matches.counts], [1, 0, 2]);
      assert.deepEqual([...matches.ranges], [4, 10, 0, 6, 8, 14]);
      assert.deepEqual([...matches.accepted], [1]);
    });

    it('matches a diff pattern over stored commit records, answering only the commits that match', async () => {
      const header = (oid: string) => `${oid}\x1f\x1fDev\x1fdev@example.com\x1f1700000000\x1f1700000000\x1fsubject\n\x1e\n\n`;
      const patch = 'diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n-old needle\n+new\n+needle, needle\n';
      const stored = [deflateRecord(`${header('a'.repeat(40))}${patch}`), deflateRecord(`${header('b'.repeat(40))}${patch.replaceAll('needle', 'thread')}`)];
      const ends = Uint32Array.from([stored[0]!.length, stored[0]!.length + stored[1]!.length]);
      const records = new Uint8Array(ends[1]!);
      records.set(stored[0]!, 0);
      records.set(stored[1]!, ends[0]!);
      const task = { records, ends, pattern: compileDiffPattern('needle', { regex: false, caseSensitive: true }), searched: searchedKinds(false, false), deadline: deadline() };
      const { hits } = await pool.submit('diff-records', task);
      assert.equal(hits.length, 2);
      assert.equal(hits[0]!.commit.oid, 'a'.repeat(40));
      assert.deepEqual(hits[0]!.hunks.flatMap((h) => h.hits.map((l) => [l.line.kind, l.ranges])), [['-', [[4, 10]]], ['+', [[0, 6], [8, 14]]]]);
      assert.equal(hits[1], null);
    });

    it('parses a file for symbols, or answers null for an unsupported language', async () => {
      const bytes = await pool.submit('parse-symbols', { path: 'a.ts', content: encode('export const answer = 42;\n') });
      assert.ok(bytes !== null);
      assert.ok(decodeFileSymbols(bytes).definitions.some((d) => d.name === 'answer'));
      assert.equal(await pool.submit('parse-symbols', { path: 'a.unknown', content: encode('answer') }), null);
    });

    it('highlights a file with its grammar\'s highlight query, or answers null when it is shown plain', async () => {
      const source = 'package main\n\n// say hi\nfunc main() { println("hé") }\n';
      const runs = await pool.submit('highlight', { path: 'main.go', content: encode(source) });
      assert.ok(runs !== null);
      const classed = new Map<string, string>();
      for (let i = 0; i < runs.length; i += 3) classed.set(source.slice(runs[i]!, runs[i + 1]!), HIGHLIGHT_CLASSES[runs[i + 2]!]!);
      assert.equal(classed.get('package'), 'keyword');
      assert.equal(classed.get('// say hi'), 'comment');
      assert.equal(classed.get('"hé"'), 'string');
      assert.equal(classed.get('main'), 'function');
      assert.equal(await pool.submit('highlight', { path: 'notes.txt', content: encode('package main') }), null);
      assert.equal(await pool.submit('highlight', { path: 'big.go', content: encode(`package big\n${'// x\n'.repeat(HIGHLIGHT_MAX_BYTES / 5)}`) }), null);
    });

    it('builds the posting run of an index batch', async () => {
      const docs = ['first document', 'second, longer document'].map(encode);
      const expected = buildRun({ extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) }, 5, docs);
      const data = new Uint8Array(docs.reduce((n, d) => n + d.length, 0));
      data.set(docs[0]!, 0);
      data.set(docs[1]!, docs[0]!.length);
      const result = await pool.submit('index-batch', { firstDoc: 5, data, ends: Uint32Array.from([docs[0]!.length, data.length]) });
      assert.deepEqual(result.run, expected);
      // Symbols come from the symbols phase's own task, never from a text batch.
      assert.deepEqual(Object.keys(result).sort(), ['blockMaps', 'run']);
    });

    it('lets a task whose deadline has passed say so itself, within the grace period', async () => {
      const late = Date.now() - 60_000;
      const specs = [{ hyperscan: 'a', js: 'a', caseless: false }];
      const found = await pool.submit('text-match', { ...packTexts(['a', 'b']), specs, scope: null, ranges: false, deadline: late }, { deadline: late });
      assert.equal(found.timedOut, true);
      assert.deepEqual([...found.hits], [0, 0]);
    });

    it('closes', async () => {
      await pool.close();
      await assert.rejects(pool.submit('parse-symbols', { path: 'a.ts', content: encode('x') }), rejectsWith('ABORTED'));
    });
  });
}
