/**
 * Probe tasks for the pool contract and the sandbox pool's tests: each does what its data says
 * (count primes, wait, hold memory, fail) and runs no code taken from the data.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createError, type ErrorCode } from '../../src/errors.js';
import type { KindTable } from '../../src/pool/kinds.js';
import { moved } from '../../src/pool/moved.js';
import type { TaskHandlers, TaskType } from '../../src/pool/pool.js';

export type ProbeTasks = {
  /** Counts the primes below `below` by trial division: bounded, and long for a large bound. */
  readonly primes: TaskType<{ readonly below: number }, number>;
  /** Sums the bytes and doubles each, the new array handed back moved. */
  readonly bytes: TaskType<{ readonly data: Uint8Array }, { readonly sum: number; readonly doubled: Uint8Array }>;
  /** Answers after `ms` without holding its thread meanwhile. */
  readonly wait: TaskType<{ readonly ms: number }, string>;
  /** Holds `mib` MiB of JS heap (arrays of doubles, not array buffers, so heap caps see them) at once. */
  readonly allocate: TaskType<{ readonly mib: number }, number>;
  /** Keeps `mib` MiB of array buffer alive on its thread until the thread ends; answers the MiB held there in all. */
  readonly retain: TaskType<{ readonly mib: number }, number>;
  /** Throws a QuarryError with `code`, or a plain Error when `code` is null. */
  readonly fail: TaskType<{ readonly code: ErrorCode | null; readonly message: string }, never>;
};

export const PROBE_KINDS: KindTable<ProbeTasks> = {
  primes: { what: 'prime count', failure: 'INTERNAL' },
  bytes: { what: 'byte sum', failure: 'INTERNAL', transfer: (task) => [task.data.buffer] },
  wait: { what: 'wait', failure: 'INTERNAL' },
  allocate: { what: 'allocation', failure: 'INTERNAL' },
  retain: { what: 'retention', failure: 'INTERNAL' },
  fail: { what: 'probe', failure: 'INTERNAL' },
};

const DOUBLES_PER_MIB = 2 ** 20 / 8;
const retained: Uint8Array[] = [];

export const probeHandlers: TaskHandlers<ProbeTasks> = {
  primes({ below }) {
    let count = 0;
    for (let n = 2; n < below; n++) {
      let prime = true;
      for (let d = 2; d * d <= n; d++) {
        if (n % d === 0) {
          prime = false;
          break;
        }
      }
      if (prime) count++;
    }
    return count;
  },
  bytes({ data }) {
    const doubled = data.map((b) => b * 2);
    return moved({ sum: data.reduce((a, b) => a + b, 0), doubled }, [doubled.buffer]);
  },
  async wait({ ms }) {
    // Unreferenced: a wait abandoned by an in-thread pool must not keep the test process alive.
    await sleep(ms, undefined, { ref: false });
    return `waited ${ms} ms`;
  },
  allocate({ mib }) {
    const held: number[][] = [];
    for (let i = 0; i < mib; i++) held.push(new Array<number>(DOUBLES_PER_MIB).fill(i + 0.5));
    return held.length;
  },
  retain({ mib }) {
    // Filled, so the pages are resident and not merely reserved.
    retained.push(new Uint8Array(mib * 2 ** 20).fill(1));
    return retained.reduce((n, held) => n + held.length, 0) / 2 ** 20;
  },
  fail({ code, message }) {
    throw code === null ? new Error(message) : createError(code, message);
  },
};

/** The worker entry serving these tasks (probe-worker.ts). */
export const PROBE_ENTRY = new URL('./probe-worker.js', import.meta.url);
