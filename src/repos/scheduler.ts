/**
 * Keeps mirrors fresh: one pass over every repository, one fetch at a time, then a pause of
 * `intervalMs`. A failed fetch is recorded on its repository and never stops the schedule.
 */

import { listRepositories, syncRepository, type RepoContext, type SyncResult } from './registry.js';

export interface SyncScheduleOptions {
  /** A number, or read after every pass (site configuration changes apply without a restart). */
  readonly intervalMs: number | (() => number);
  /** Called after each successful fetch, e.g. to queue indexing when `changed`. */
  readonly onSynced?: (result: SyncResult) => void | Promise<void>;
  /** Called with a failed fetch (already recorded on the repository) or a failing `onSynced`. */
  readonly onError?: (name: string, err: unknown) => void;
  /** Which repositories this process keeps (a cluster's search node: those it owns), asked each pass; default all. */
  readonly includes?: (name: string) => boolean;
}

/**
 * Starts syncing now and again `intervalMs` after each pass ends. The schedule keeps the process
 * alive until the returned stop() is called; stop() waits for the fetch in flight.
 */
export function startSyncSchedule(ctx: RepoContext, options: SyncScheduleOptions): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;

  const syncAll = async (): Promise<void> => {
    for (const { name } of listRepositories(ctx)) {
      if (stopped) return;
      if (options.includes !== undefined && !options.includes(name)) continue;
      try {
        const result = await syncRepository(ctx, name);
        await options.onSynced?.(result);
      } catch (err) {
        options.onError?.(name, err);
      }
    }
  };

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = syncAll().finally(() => {
        inFlight = null;
        schedule(typeof options.intervalMs === 'function' ? options.intervalMs() : options.intervalMs);
      });
    }, delayMs);
  };

  schedule(0);
  return async () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    await inFlight;
  };
}
