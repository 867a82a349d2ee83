/**
 * The PostgreSQL engine's two connections (one for writes, one that LISTENs and replays) and their
 * recovery: when either is lost both are dropped, and new ones are tried with exponential backoff
 * until PostgreSQL answers again; then `connected` brings memory up to date before the link counts
 * as up. While down, `unavailable()` says so, with when to retry. Never ends the process.
 */
import pg from 'pg';
import { createError, errorMessage, type QuarryError } from '../../errors.js';

export const CHANNEL = 'quarry_store';

export interface LinkOptions {
  /** First wait before reconnecting; doubled per failed attempt up to maxBackoffMs. */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

export interface LinkHooks {
  /** Runs on each new pair of connections, already LISTENing, before the link is up: catch up here. */
  connected(writer: pg.Client, listener: pg.Client): Promise<void>;
  notified(): void;
}

export interface PgLink {
  /** The connections while up; null while down or reconnecting. */
  readonly clients: { readonly writer: pg.Client; readonly listener: pg.Client } | null;
  /** Null while up; else STORE_UNAVAILABLE with `retryAfterSeconds` (until the next attempt, at least 1). */
  unavailable(): QuarryError | null;
  /** Drops the connections as lost (a query that never answered) and starts reconnecting. */
  lost(reason: Error): void;
  close(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

/** Connects once (failing with STORE_UNAVAILABLE if PostgreSQL cannot be reached at start); recovers from later losses. */
export async function openLink(url: string, hooks: LinkHooks, options: LinkOptions = {}): Promise<PgLink> {
  const minBackoff = options.minBackoffMs ?? MIN_BACKOFF_MS;
  const maxBackoff = options.maxBackoffMs ?? MAX_BACKOFF_MS;
  let clients: { writer: pg.Client; listener: pg.Client } | null = null;
  let lastError: Error | null = null;
  let backoff = minBackoff;
  let nextAttemptAt = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const noticedBeforeUse = new WeakSet<object>();

  async function connectPair(): Promise<{ writer: pg.Client; listener: pg.Client }> {
    // JIT off: the store's statements are small, and a planner estimate on young tables (no
    // statistics yet) compiled the catch-up query, 25 ms for a statement that takes 0.1.
    const config = { connectionString: url, keepAlive: true, options: '-c jit=off' };
    const writer = new pg.Client(config);
    const listener = new pg.Client(config);
    const pair = { writer, listener };
    // An 'error' event without a listener ends the process; 'end' is a close PostgreSQL started (a restart).
    for (const client of [writer, listener]) {
      client.on('error', (error) => drop(pair, error));
      client.on('end', () => drop(pair, new Error('connection closed by the server')));
    }
    // A NOTIFY before the pair is in use may postdate the catch-up in `connected`: it is passed on
    // once the pair is installed (installed() below), never to a caller still opening the link.
    listener.on('notification', () => {
      if (clients === pair) hooks.notified();
      else noticedBeforeUse.add(pair);
    });
    try {
      await writer.connect();
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
      await hooks.connected(writer, listener);
      return pair;
    } catch (error) {
      await endQuietly(pair);
      throw error;
    }
  }

  /** Makes a pair the one in use; a NOTIFY it took while connecting is delivered after the caller's current task. */
  function installed(pair: { writer: pg.Client; listener: pg.Client }): void {
    clients = pair;
    if (noticedBeforeUse.delete(pair)) setImmediate(() => { if (clients === pair) hooks.notified(); });
  }

  /** Called for any failure of a pair: only the pair in use counts (an abandoned attempt's errors do not). */
  function drop(pair: { writer: pg.Client; listener: pg.Client }, error: Error): void {
    if (clients !== pair) return;
    clients = null;
    lastError = error;
    void endQuietly(pair);
    schedule();
  }

  function schedule(): void {
    if (closed || timer !== null) return;
    // Jitter keeps several nodes that lost PostgreSQL together from reconnecting in step.
    const wait = Math.round(backoff * (0.8 + Math.random() * 0.4));
    nextAttemptAt = Date.now() + wait;
    timer = setTimeout(() => {
      timer = null;
      void attempt();
    }, wait);
    timer.unref();
  }

  async function attempt(): Promise<void> {
    try {
      const pair = await connectPair();
      if (closed) return void endQuietly(pair);
      installed(pair);
      lastError = null;
      backoff = minBackoff;
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
      backoff = Math.min(maxBackoff, backoff * 2);
      schedule();
    }
  }

  try {
    installed(await connectPair());
  } catch (error) {
    throw createError('STORE_UNAVAILABLE', `could not open the store in PostgreSQL: ${errorMessage(error)}`);
  }

  return {
    get clients() {
      return clients;
    },
    unavailable() {
      if (clients !== null) return null;
      const retryAfterSeconds = Math.max(1, Math.ceil((nextAttemptAt - Date.now()) / 1000));
      return createError('STORE_UNAVAILABLE', `PostgreSQL connection lost: ${lastError?.message ?? 'reconnecting'}`, { retryAfterSeconds });
    },
    lost(reason) {
      if (clients !== null) drop(clients, reason);
    },
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const pair = clients;
      clients = null;
      if (pair !== null) await Promise.all([pair.writer.end(), pair.listener.end()]).catch(() => undefined);
    },
  };
}

async function endQuietly(pair: { writer: pg.Client; listener: pg.Client }): Promise<void> {
  await Promise.allSettled([pair.writer.end(), pair.listener.end()]);
}
