/**
 * The PostgreSQL engine. Reads are synchronous from an in-memory copy of every table, loaded at
 * start: the store modules and their callers (the authenticator, authorization, 34 write
 * transactions) are synchronous, and the control plane is small. A write transaction applies to
 * memory at once and is queued as one SQL transaction; `committed()` settles when PostgreSQL has it
 * (the GraphQL door awaits it before answering). Each SQL transaction takes one advisory lock (so
 * change numbers commit in order), checks that no other node wrote its rows since this one last
 * saw them (else STORE_CONFLICT, and those rows are reloaded), and logs its keys; other nodes
 * replay the log on NOTIFY, or at once through `refresh()` (which the HTTP edge awaits before each
 * request, so a revocation anywhere holds on the next request here). A lost connection is retried
 * with backoff (link.ts); meanwhile writes and `refresh()` fail with STORE_UNAVAILABLE, and once
 * back the node replays what it missed, or loads a snapshot if the log was pruned past it.
 */
import type pg from 'pg';
import { createError } from '../../errors.js';
import type { StoreEngine, Table, TableKey } from '../engine.js';
import { DEFAULT_PRUNE, readChangesSince, readSnapshot, type PruneOptions, type StoredRow as ChangeRow } from './change-log.js';
import { openLink, type LinkOptions } from './link.js';
import { migrate } from './migrate.js';
import { MirrorTable, type TableWriter } from './mirror-table.js';
import { openWriteQueue, type RowWrite } from './write-queue.js';

export interface PgEngineOptions extends LinkOptions {
  readonly prune?: PruneOptions;
  /** A catch-up (refresh) that takes longer counts the connection as lost: requests get 503, not a hang. */
  readonly catchUpTimeoutMs?: number;
}

const CATCH_UP_TIMEOUT_MS = 10_000;

export async function openPgEngine(url: string, options: PgEngineOptions = {}): Promise<StoreEngine> {
  const tables = new Map<string, MirrorTable<unknown, TableKey>>();
  /** The version each row had when this node last saw it in PostgreSQL (absent: no row). */
  const seenVersions = new Map<string, number>();
  /** The version of this node's own removals until a replay covers them (a replay read before one must not bring the row back). */
  const removedAt = new Map<string, number>();
  /** Keys with local writes not yet committed: replays from other nodes leave them alone. */
  const pendingWrites = new Map<string, number>();
  /** Moves whenever memory takes a change this node did not just write (StoreEngine.outsideChanges). */
  let outsideChanges = 0;
  /** Transactions of this node refused or lost after memory had them (StoreEngine.undoneWrites). */
  let undoneWrites = 0;
  const rowId = (tbl: string, key: TableKey): string => `${tbl}\u0000${JSON.stringify(key)}`;
  const tableNamed = (name: string): MirrorTable<unknown, TableKey> => {
    let table = tables.get(name);
    if (table === undefined) {
      table = new MirrorTable<unknown, TableKey>(name, tableWriter);
      tables.set(name, table);
    }
    return table;
  };

  let transaction: RowWrite[] | null = null;
  const queue = openWriteQueue({
    seenVersion: (write) => seenVersions.get(rowId(write.table.name, write.key)),
    committed(writes, version) {
      for (const write of writes) {
        const id = rowId(write.table.name, write.key);
        if (write.text === undefined) {
          seenVersions.delete(id);
          removedAt.set(id, version);
        } else {
          seenVersions.set(id, version);
          removedAt.delete(id);
        }
      }
    },
    settled(writes) {
      for (const write of writes) {
        const id = rowId(write.table.name, write.key);
        const left = (pendingWrites.get(id) ?? 1) - 1;
        if (left === 0) pendingWrites.delete(id);
        else pendingWrites.set(id, left);
      }
    },
    reload(rows) {
      undoneWrites++;
      applyRows(rows, true);
    },
    abandoned(writes) {
      undoneWrites++;
      outsideChanges++;
      // Undone only where no later write of this node stands on it (that one fails the same way).
      for (let i = writes.length - 1; i >= 0; i--) {
        const write = writes[i]!;
        if (write.table.textOf(write.key) === write.text) write.table.setText(write.key, write.before);
      }
    },
    connection: () => link.clients?.writer ?? link.unavailable()!,
  }, options.prune ?? DEFAULT_PRUNE);
  const enqueue = (writes: RowWrite[]): Promise<unknown> => {
    for (const write of writes) {
      const id = rowId(write.table.name, write.key);
      pendingWrites.set(id, (pendingWrites.get(id) ?? 0) + 1);
    }
    return queue.push(writes);
  };

  const tableWriter: TableWriter = {
    write(table, key, text) {
      const write: RowWrite = { table, key, text, before: table.textOf(key) };
      table.setText(key, text);
      if (transaction !== null) transaction.push(write);
      else void enqueue([write]).catch(() => undefined);
    },
    writeSoon(table, key, text) {
      const write: RowWrite = { table, key, text, before: table.textOf(key) };
      table.setText(key, text);
      if (transaction !== null) {
        transaction.push(write);
        return Promise.resolve(true);
      }
      return enqueue([write]);
    },
  };

  /**
   * Sets memory and seen versions from rows read from PostgreSQL. A replay read before this node's
   * own later commit of a row arrives after it: such rows are older than what memory has, and are
   * skipped, as are rows with local writes pending. `force` (a refused write's rows) overrides both.
   */
  function applyRows(rows: readonly ChangeRow[], force: boolean): void {
    if (rows.length > 0) outsideChanges++;
    for (const row of rows) {
      const key = JSON.parse(row.key) as TableKey;
      const id = rowId(row.tbl, key);
      const known = seenVersions.get(id) ?? removedAt.get(id);
      const incoming = row.version === null ? Number(row.seq) : Number(row.version);
      if (!force && (pendingWrites.has(id) || (known !== undefined && known > incoming))) continue;
      removedAt.delete(id);
      tableNamed(row.tbl).setText(key, row.value ?? undefined);
      if (row.version === null) seenVersions.delete(id);
      else seenVersions.set(id, Number(row.version));
    }
  }

  /** Replaces memory with a snapshot: rows it lacks are gone (pending local writes aside). */
  function applySnapshot(rows: readonly ChangeRow[], through: number): void {
    const present = new Set(rows.map((row) => rowId(row.tbl, JSON.parse(row.key) as TableKey)));
    for (const table of tables.values()) {
      for (const { key } of [...table.getRange()]) {
        const id = rowId(table.name, key);
        if (present.has(id) || pendingWrites.has(id) || (seenVersions.get(id) ?? 0) > through) continue;
        table.setText(key, undefined);
        seenVersions.delete(id);
      }
    }
    applyRows(rows, false);
    outsideChanges++;
  }

  /** The last change applied to memory: replays start after it. */
  let replayedThrough = 0;
  let started = false;
  async function catchUp(client: pg.Client): Promise<void> {
    const replay = await readChangesSince(client, replayedThrough);
    if (replay.kind === 'changes') {
      applyRows(replay.rows, false);
      if (replay.rows.length > 0) replayedThrough = Number(replay.rows[replay.rows.length - 1]!.seq);
    } else {
      // Disconnected past the log's horizon: what changed meanwhile is only in a snapshot.
      const snapshot = await readSnapshot(client);
      applySnapshot(snapshot.rows, snapshot.through);
      replayedThrough = Math.max(replayedThrough, snapshot.through);
    }
    // Replays run one at a time: every later one reads after these removals.
    for (const [id, version] of removedAt) if (version <= replayedThrough) removedAt.delete(id);
  }

  const catchUpTimeoutMs = options.catchUpTimeoutMs ?? CATCH_UP_TIMEOUT_MS;
  let replaying: Promise<void> | null = null;
  let replayAgain = false;
  const link = await openLink(url, {
    async connected(writer, listener) {
      if (!started) {
        await migrate(writer);
        const snapshot = await readSnapshot(writer);
        applyRows(snapshot.rows, true);
        replayedThrough = snapshot.through;
        started = true;
      }
      // After a reconnect: what other nodes committed while this one was away (its NOTIFYs are lost).
      await catchUp(listener);
    },
    notified: () => { refresh().catch(() => undefined); },
  }, options);

  async function replayOnce(): Promise<void> {
    const clients = link.clients;
    if (clients === null) throw link.unavailable()!;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = createError('STORE_UNAVAILABLE', `PostgreSQL did not answer within ${catchUpTimeoutMs} ms`, { retryAfterSeconds: 1 });
        link.lost(error);
        reject(error);
      }, catchUpTimeoutMs);
    });
    try {
      await Promise.race([catchUp(clients.listener), timedOut]);
    } catch (error) {
      throw link.unavailable() ?? error;
    } finally {
      clearTimeout(timer);
    }
  }
  /** Replays every change committed before the call; concurrent calls share one query and queue at most one more. */
  function refresh(): Promise<void> {
    if (replaying !== null) {
      replayAgain = true;
      return replaying;
    }
    replaying = (async () => {
      try {
        do {
          replayAgain = false;
          await replayOnce();
        } while (replayAgain);
      } finally {
        replaying = null;
      }
    })();
    return replaying;
  }

  return {
    transactionSync<T>(action: () => T): T {
      if (transaction !== null) {
        // Nested: undoing back to here on a throw gives LMDB's child-transaction behaviour.
        const mark = transaction.length;
        try {
          return action();
        } catch (error) {
          undo(transaction.splice(mark));
          throw error;
        }
      }
      const writes: RowWrite[] = [];
      transaction = writes;
      try {
        const result = action();
        transaction = null;
        if (writes.length > 0) void enqueue(writes).catch(() => undefined);
        return result;
      } catch (error) {
        transaction = null;
        undo(writes);
        throw error;
      }
    },
    openDB: <V, K extends TableKey>(name: string) => tableNamed(name) as unknown as Table<V, K>,
    get flushed() {
      return queue.idle();
    },
    committed: () => queue.idle(),
    refresh,
    get outsideChanges() {
      return outsideChanges;
    },
    get undoneWrites() {
      return undoneWrites;
    },
    get available() {
      return link.clients !== null;
    },
    async close() {
      await queue.idle().catch(() => undefined);
      await link.close();
    },
  };
}

function undo(writes: readonly RowWrite[]): void {
  for (let i = writes.length - 1; i >= 0; i--) writes[i]!.table.setText(writes[i]!.key, writes[i]!.before);
}
