/**
 * The fair queue in simulated time: owners whose tasks take seconds against owners whose tasks
 * take milliseconds, each always with work waiting, as on a saturated server. Shares of slot time
 * are measured, and compared with what first-come first-served order gives the same load.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFairDispatcher, PreemptedError } from '../../src/pool/fair-dispatch.js';
import { FairQueue } from '../../src/pool/fair-queue.js';

interface Running {
  readonly owner: string;
  readonly endsAt: number;
  readonly finish: (usedMs: number) => void;
  readonly startedAt: number;
}

/**
 * Runs `durations` (owner → ms per task) for `spanMs` of simulated time with every owner keeping
 * `backlog` tasks waiting; `fifo` hands slots out in arrival order instead. Returns each owner's
 * slot time and the most slots any owner held at once while another waited.
 */
function simulate(durations: Record<string, number>, options: { slots: number; spanMs: number; backlog: number; fifo?: boolean }): { busy: Map<string, number>; maxHeldWhileOthersWait: number } {
  const queue = new FairQueue<number>({ slots: options.slots, maxPerOwner: Math.ceil(options.slots / 2), aheadLimitMs: 1000 });
  const fifo: string[] = [];
  const busy = new Map<string, number>();
  const running: Running[] = [];
  let maxHeld = 0;
  let now = 0;
  let sequence = 0;
  const push = (owner: string): void => {
    if (options.fifo) fifo.push(owner);
    else queue.push(owner, sequence++);
  };
  for (const owner of Object.keys(durations)) for (let i = 0; i < options.backlog; i++) push(owner);
  while (now < options.spanMs) {
    for (;;) {
      let owner: string;
      let finish: (usedMs: number) => void = () => {};
      if (options.fifo) {
        if (running.length >= options.slots || fifo.length === 0) break;
        owner = fifo.shift()!;
      } else {
        const next = queue.next();
        if (next === null) break;
        owner = next.owner;
        finish = next.finish;
      }
      running.push({ owner, endsAt: now + durations[owner]!, finish, startedAt: now });
      const held = running.filter((r) => r.owner === owner).length;
      if (Object.keys(durations).length > 1) maxHeld = Math.max(maxHeld, held);
    }
    running.sort((a, b) => a.endsAt - b.endsAt);
    const done = running.shift()!;
    now = done.endsAt;
    busy.set(done.owner, (busy.get(done.owner) ?? 0) + (done.endsAt - done.startedAt));
    done.finish(done.endsAt - done.startedAt);
    push(done.owner);
  }
  return { busy, maxHeldWhileOthersWait: maxHeld };
}

function share(busy: Map<string, number>, owner: string): number {
  const total = [...busy.values()].reduce((a, b) => a + b, 0);
  return (busy.get(owner) ?? 0) / total;
}

describe('FairQueue', () => {
  const load: Record<string, number> = { heavy: 4000 };
  for (let i = 0; i < 9; i++) load[`light${i}`] = 20;

  it('gives a caller of seconds-long tasks about its share of slot time, where arrival order gives it most', () => {
    const fair = simulate(load, { slots: 2, spanMs: 600_000, backlog: 2 });
    const fifo = simulate(load, { slots: 2, spanMs: 600_000, backlog: 2, fifo: true });
    assert.ok(share(fifo.busy, 'heavy') > 0.9, `arrival order gave heavy ${share(fifo.busy, 'heavy')}`);
    assert.ok(share(fair.busy, 'heavy') < 0.2, `fair order gave heavy ${share(fair.busy, 'heavy')} of the slot time (fair share 0.1)`);
    for (let i = 0; i < 9; i++) assert.ok(share(fair.busy, `light${i}`) > 0.07, `light${i} got ${share(fair.busy, `light${i}`)}`);
  });

  it('never lets one caller hold more than half the slots while another waits', () => {
    assert.equal(simulate(load, { slots: 2, spanMs: 60_000, backlog: 4 }).maxHeldWhileOthersWait, 1);
    assert.equal(simulate(load, { slots: 4, spanMs: 60_000, backlog: 4 }).maxHeldWhileOthersWait, 2);
  });

  it('gives a lone caller every slot', () => {
    const queue = new FairQueue<number>({ slots: 3, maxPerOwner: 2 });
    for (let i = 0; i < 5; i++) queue.push('alone', i);
    const started = [queue.next(), queue.next(), queue.next(), queue.next()];
    assert.deepEqual(started.map((s) => s?.item ?? null), [0, 1, 2, null]);
    started[0]!.finish(5);
    assert.equal(queue.next()?.item, 3);
  });

  it('keeps a heavy caller\'s debt across a pause, and gives an idle caller no credit', () => {
    const queue = new FairQueue<string>({ slots: 1, maxPerOwner: 1 });
    queue.push('heavy', 'h1');
    queue.next()!.finish(5000);
    // heavy is idle now, with a debt of 5 s; a light caller arrives, then heavy again.
    queue.push('light', 'l1');
    queue.push('heavy', 'h2');
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      const next = queue.next()!;
      order.push(next.item);
      next.finish(next.owner === 'light' ? 10 : 5000);
      if (next.owner === 'light' && i < 2) queue.push('light', `l${i + 2}`);
    }
    assert.deepEqual(order, ['l1', 'l2', 'l3', 'h2']);
    // A caller idle all along starts where the queue is, not at zero: it does not get a burst.
    queue.push('newcomer', 'n1');
    queue.push('light', 'l9');
    const first = queue.next()!;
    first.finish(10);
    const second = queue.next()!;
    assert.deepEqual(new Set([first.item, second.item]), new Set(['n1', 'l9']));
  });

  it('holds back a caller far ahead of its share while another runs, even on a free slot', () => {
    const queue = new FairQueue<string>({ slots: 2, maxPerOwner: 1, aheadLimitMs: 1000 });
    queue.push('heavy', 'h1');
    queue.next()!.finish(5000);
    queue.push('light', 'l1');
    const light = queue.next()!;
    assert.equal(light.item, 'l1');
    queue.push('heavy', 'h2');
    assert.equal(queue.next(), null, 'heavy is 5 s ahead and light is running: the free slot stays free');
    light.finish(10);
    assert.equal(queue.next()?.item, 'h2', 'with nobody else running, heavy runs at once');
  });

  it('takes a waiting task back out', () => {
    const queue = new FairQueue<string>({ slots: 1, maxPerOwner: 1 });
    queue.push('a', 'x');
    queue.push('a', 'y');
    assert.equal(queue.remove('a', 'x'), true);
    assert.equal(queue.remove('a', 'x'), false);
    assert.equal(queue.waiting, 1);
    assert.equal(queue.next()?.item, 'y');
  });
});

describe('createFairDispatcher', () => {
  it('starts no more tasks than slots, and a task aborted while waiting leaves with its reason', async () => {
    const dispatcher = createFairDispatcher(1);
    let release!: () => void;
    let running = 0;
    let most = 0;
    const task = async (): Promise<string> => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => (release = resolve));
      running--;
      return 'done';
    };
    const first = dispatcher.run('a', undefined, task);
    const controller = new AbortController();
    const second = dispatcher.run('b', controller.signal, task);
    const third = dispatcher.run('c', undefined, async () => 'third');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(dispatcher.waiting, 2);
    controller.abort(new Error('gone'));
    await assert.rejects(second, /gone/);
    assert.equal(dispatcher.waiting, 1);
    release();
    assert.equal(await first, 'done');
    assert.equal(await third, 'third');
    assert.equal(most, 1);
  });

  it('frees the slot when a task fails', async () => {
    const dispatcher = createFairDispatcher(1);
    await assert.rejects(dispatcher.run('a', undefined, async () => {
      throw new Error('boom');
    }), /boom/);
    assert.equal(await dispatcher.run('a', undefined, async () => 'next'), 'next');
  });

  it('stops a task that holds its slot past a slice while another caller waits, and only then', async () => {
    const dispatcher = createFairDispatcher(1);
    const untilPreempted = (preempted: AbortSignal | null): Promise<string> => new Promise((_, reject) => preempted!.addEventListener('abort', () => reject(preempted!.reason)));
    const alone = dispatcher.run('heavy', undefined, async (preempted) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return preempted!.aborted ? 'preempted' : 'ran alone for four slices';
    }, { sliceMs: 50 });
    assert.equal(await alone, 'ran alone for four slices');
    const heavy = dispatcher.run('heavy', undefined, untilPreempted, { sliceMs: 50 });
    const light = dispatcher.run('light', undefined, async (preempted) => (preempted === null ? 'light ran' : 'light got a slice it did not ask for'));
    // The slice timer does not hold the process open (a server has its own handles); this test does.
    const keepAlive = setTimeout(() => {}, 5000);
    const started = performance.now();
    await assert.rejects(heavy, (err) => err instanceof PreemptedError && err.sliceMs === 50);
    clearTimeout(keepAlive);
    assert.ok(performance.now() - started < 1000);
    assert.equal(await light, 'light ran');
  });
});

describe('heavy owners', () => {
  const thresholds = { typicalMs: 1000, aheadMs: Infinity, activeWindowMs: 60_000 };
  /** Runs one task of `ms` for each owner, then leaves `waiting` with a task queued. */
  const queueWith = (typical: Record<string, number>, waiting: string): FairQueue<number> => {
    const queue = new FairQueue<number>({ slots: 2, maxPerOwner: 1 });
    for (const [owner, ms] of Object.entries(typical)) {
      queue.push(owner, 0);
      queue.next()!.finish(ms);
    }
    queue.push(waiting, 1);
    return queue;
  };

  it('an owner whose tasks run for seconds beside owners of short tasks is heavy; they are not', () => {
    const queue = queueWith({ slow: 2000, quick: 20 }, 'quick');
    assert.equal(queue.heavy('slow', thresholds), true);
    assert.equal(queue.heavy('quick', thresholds), false);
  });

  it('on a machine where every owner\'s tasks run long, nobody is singled out', () => {
    const queue = queueWith({ slow: 2000, alsoSlow: 1800 }, 'alsoSlow');
    assert.equal(queue.heavy('slow', thresholds), false);
  });

  it('alone, a slow owner is not heavy: nobody else needs the slots', () => {
    const queue = new FairQueue<number>({ slots: 2, maxPerOwner: 1 });
    queue.push('slow', 0);
    queue.next()!.finish(2000);
    assert.equal(queue.heavy('slow', thresholds), false);
  });

  it('a turn given up to run elsewhere charges nothing and leaves the typical task time as it was', () => {
    const queue = queueWith({ slow: 2000, quick: 20 }, 'quick');
    queue.push('slow', 2);
    for (let i = 0; i < 10; i++) {
      const started = queue.next();
      if (started?.owner !== 'slow') {
        started?.finish(20);
        queue.push('quick', 3);
        continue;
      }
      started.finish(null);
      queue.push('slow', 2);
    }
    assert.equal(queue.heavy('slow', thresholds), true);
  });
});
