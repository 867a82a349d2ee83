/**
 * Worker threads' memory as their pool sees it: each worker reports its V8 heap and external
 * (native, e.g. Hyperscan databases) figures after a task, at most once a second, and the pool
 * keeps the latest per live thread, so /metrics can tell which lane holds memory. Piscina's Atomics
 * wait keeps an idle worker's event loop still, so reports ride on task completions, not timers.
 */
import { getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

export interface ThreadMemory {
  /** V8 heap in use (live objects and garbage not yet collected). */
  readonly heapUsedBytes: number;
  /** V8 heap reserved. */
  readonly heapTotalBytes: number;
  /** Memory outside the V8 heap that the thread's objects hold (array buffers, native addons' reports). */
  readonly externalBytes: number;
}

/** One lane's threads together, and how many threads it has stopped (terminated or retired) so far. */
export interface LaneMemory extends ThreadMemory {
  readonly threads: number;
  readonly threadsStopped: number;
}

const TAG = 'quarry:thread-memory';
const REPORT_EVERY_MS = 1000;

interface ThreadMemoryMessage {
  readonly tag: typeof TAG;
  readonly threadId: number;
  readonly memory: ThreadMemory;
}

export function readThreadMemory(): ThreadMemory {
  const stats = getHeapStatistics();
  return { heapUsedBytes: stats.used_heap_size, heapTotalBytes: stats.total_heap_size, externalBytes: stats.external_memory };
}

/** Worker side: a report to post on the parent port when one is due, else null. */
export function createMemoryReporter(now: () => number = Date.now): () => ThreadMemoryMessage | null {
  let last = -Infinity;
  return () => {
    const at = now();
    if (at - last < REPORT_EVERY_MS) return null;
    last = at;
    return { tag: TAG, threadId, memory: readThreadMemory() };
  };
}

export function isThreadMemoryMessage(message: unknown): message is ThreadMemoryMessage {
  return typeof message === 'object' && message !== null && (message as Partial<ThreadMemoryMessage>).tag === TAG;
}

/** Pool side: the latest report of each live thread. */
export class ThreadMemoryBook {
  private readonly latest = new Map<number, ThreadMemory>();
  private stopped = 0;

  record(message: ThreadMemoryMessage): void {
    this.latest.set(message.threadId, message.memory);
  }

  /** A thread that is gone holds nothing any more; its last report must not count. */
  drop(thread: number): void {
    this.latest.delete(thread);
    this.stopped++;
  }

  total(): LaneMemory {
    let heapUsedBytes = 0;
    let heapTotalBytes = 0;
    let externalBytes = 0;
    for (const memory of this.latest.values()) {
      heapUsedBytes += memory.heapUsedBytes;
      heapTotalBytes += memory.heapTotalBytes;
      externalBytes += memory.externalBytes;
    }
    return { threads: this.latest.size, threadsStopped: this.stopped, heapUsedBytes, heapTotalBytes, externalBytes };
  }
}
