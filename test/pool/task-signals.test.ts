/**
 * A settled task leaves nothing behind on the main thread: its signals, their listeners and the
 * controllers they reach are collectable once it is done, whatever long-lived signals (the pool's
 * closing signal, a caller's) they followed. The mixed-load bench saw the main heap grow by about
 * 1 KB per task (AbortSignal.any over the pool's closing signal, given an abort listener).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { linkSignals, onFirstAbort } from '../../src/pool/linked-signal.js';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { chargeSignalTo } from '../../src/pool/work-owner.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

test('a linked signal aborts with the first source to abort, and an already aborted source at once', () => {
  const a = new AbortController();
  const b = new AbortController();
  const linked = linkSignals([a.signal, b.signal]);
  assert.equal(linked.signal.aborted, false);
  b.abort(new Error('b first'));
  a.abort(new Error('a later'));
  assert.equal((linked.signal.reason as Error).message, 'b first');
  const early = linkSignals([new AbortController().signal, AbortSignal.abort('gone')]);
  assert.equal(early.signal.aborted, true);
  assert.equal(early.signal.reason, 'gone');
});

test('after dispose, a source aborting reaches nobody', () => {
  const source = new AbortController();
  const reasons: unknown[] = [];
  const dispose = onFirstAbort([source.signal], (reason) => reasons.push(reason));
  dispose();
  source.abort('late');
  assert.deepEqual(reasons, []);
  const linked = linkSignals([source.signal]);
  assert.equal(linked.signal.aborted, true, 'a source that aborted before the link is followed at once');
});

test('links over a long-lived signal, disposed, do not grow the heap', async () => {
  const lifelong = new AbortController();
  const link = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const own = new AbortController();
      const linked = linkSignals([own.signal, AbortSignal.timeout(60_000), lifelong.signal]);
      linked.signal.addEventListener('abort', () => own.abort(), { once: true });
      linked.dispose();
    }
  };
  link(5_000);
  const before = await settledHeap();
  link(20_000);
  const grown = (await settledHeap()) - before;
  assert.ok(grown / 20_000 < 40, `${(grown / 20_000).toFixed(0)} bytes per link stayed on the heap`);
});

test('a pool keeps nothing of its settled tasks on the main thread, and its many listeners raise no leak warning', async () => {
  const pool = createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threads: 2, kinds: PROBE_KINDS, deadlineGraceMs: 300, sliceMs: 2000 });
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    // As a request's tasks are: a caller's signal, charged to it, and a deadline.
    const run = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i += 50) {
        await Promise.all(Array.from({ length: 50 }, () => {
          const caller = new AbortController();
          chargeSignalTo(caller.signal, `caller-${i % 7}`);
          return pool.submit('wait', { ms: 0 }, { signal: caller.signal, deadline: Date.now() + 30_000 });
        }));
      }
    };
    await run(1_000);
    const before = await settledHeap();
    await run(4_000);
    const grown = (await settledHeap()) - before;
    assert.ok(grown / 4_000 < 150, `${(grown / 4_000).toFixed(0)} bytes per settled task stayed on the main thread's heap`);
    // 50 tasks in flight each listen for the pool closing: by design, so no MaxListenersExceededWarning.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
  } finally {
    process.off('warning', onWarning);
    await pool.close();
  }
});
