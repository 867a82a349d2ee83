/**
 * Failure handling for lmdb-js asynchronous writes. A failed commit rejects the write's promise
 * and a second `commitError` promise; left unhandled, that one ends the process, and the
 * environment never finishes closing. Every async write in src/index goes through here.
 */
import type { RootDatabase } from 'lmdb';
import { createError, errorMessage, isQuarryError, type QuarryError } from '../../errors.js';
import { freeBytes, writeFailedFull } from './disk-space.js';

/**
 * Options for every writable environment in src/index. lmdb-js's event-turn batching opens each
 * batch with an internal write whose promise nobody holds: when that commit fails (a full disk),
 * its rejection goes unhandled and ends the process. Writes here need no event-turn atomicity.
 */
export const WRITABLE = { eventTurnBatching: false } as const;

/** How long a close may take after a failed commit before the environment is abandoned. */
const CLOSE_AFTER_FAILURE_MS = 2000;
const LOW_SPACE_BYTES = 4 * 1024 * 1024;

/** Follows one writer's async writes: remembers the first failure and keeps it handled. */
export class WriteTracker {
  private last: Promise<unknown> = Promise.resolve();
  private failure: unknown = null;

  constructor(private readonly dir: string, private readonly what: string) {}

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Writes that commit together share one promise; each distinct promise is watched once. */
  track<T>(write: Promise<T>): Promise<T> {
    if (write !== this.last) {
      this.last = write;
      write.then(undefined, (err: unknown) => {
        handled(err);
        this.failure ??= err;
      });
    }
    return write;
  }

  /** Resolves once every tracked write has committed; otherwise throws what the failure means. */
  async settled(): Promise<void> {
    await this.last.catch(() => undefined);
    if (this.failure !== null) throw await writeFailure(this.failure, this.dir, this.what);
  }

  /** Closes `env`; after a failed commit, gives up waiting (lmdb-js would wait forever). */
  async close(env: RootDatabase): Promise<void> {
    const closing = env.close().catch(() => undefined);
    if (!this.failed) return closing;
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_AFTER_FAILURE_MS).unref())]);
  }
}

/** Awaits one async write (catalog, commit store), turning a failed commit into a clear error. */
export async function committed<T>(write: Promise<T>, dir: string, what: string): Promise<T> {
  try {
    return await write;
  } catch (err) {
    handled(err);
    throw await writeFailure(err, dir, what);
  }
}

function handled(err: unknown): void {
  const inner = (err as { commitError?: unknown } | null)?.commitError;
  if (inner instanceof Promise) inner.catch(() => undefined);
}

/** DISK_FULL when the disk is (nearly) full, the error LMDB gave otherwise. */
async function writeFailure(err: unknown, dir: string, what: string): Promise<QuarryError> {
  if (isQuarryError(err)) return err;
  const inner = (err as { commitError?: unknown } | null)?.commitError;
  const cause = inner instanceof Promise ? await inner.then(() => err, (e: unknown) => e) : err;
  const free = freeOrNull(dir);
  if (free !== null && free < LOW_SPACE_BYTES) return writeFailedFull(dir, free, what);
  return createError('INDEX_WRITE_FAILED', `${what} failed: ${errorMessage(cause)}`);
}

function freeOrNull(dir: string): number | null {
  try {
    return freeBytes(dir);
  } catch {
    return null;
  }
}
