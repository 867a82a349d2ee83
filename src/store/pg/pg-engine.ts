/**
 * The PostgreSQL engine. Reads are synchronous from an in-memory copy of every table, loaded at
 * start: the store modules and their callers (the authenticator, authorization, 34 write
 * transactions) are synchronous, and the control plane is small. A write transaction applies to
 * memory at once and is queued as one SQL transaction; `committed()` settles when PostgreSQL has it
 * (the GraphQL door awaits it before answering). Each SQL transaction takes one advisory lock (so
 * change numbers commit in order), checks that no other node wrote its rows since this one last
 * saw them (else STORE_CONFLICT, and those rows are reloaded), and logs its keys; other nodes
 * replay the log on NOTIFY, or at once through `refresh()`.
 */
import pg from 'pg';
import { createError, errorMessage } from '../../errors.js';
import type { StoreEngine, Table, TableKey } from '../engine.js';
import { migrate } from './migrate.js';
import { MirrorTable, type TableWriter } from './mirror-table.js';
import { openWriteQueue, type RowWrite, type StoredRow as ChangeRow } from './write-queue.js';

const CHANNEL = 'quarry_store';

export async function openPgEngine(url: string): Promise<StoreEngine> {
  const writer = new pg.Client({ connectionString: url });
  const listener = new pg.Client({ connectionString: url });
  // An 'error' event without a listener ends the process: a lost connection fails writes instead.
  let lostConnection: Error | null = null;
  for (const client of [writer, listener]) client.on('error', (error) => { lostConnection = error; });
  try {
    await writer.connect();
    await listener.connect();
    await migrate(writer);
    await listener.query(`LISTEN ${CHANNEL}`);
  } catch (error) {
    await Promise.allSettled([writer.end(), listener.end()]);
    throw createError('STORE_UNAVAILABLE', `could not open the store in PostgreSQL: ${errorMessage(error)}`);
  }

  const tables = new Map<string, MirrorTable<unknown, TableKey>>();
  /** The version each row had when this node last saw it in PostgreSQL (absent: no row). */
  const seenVersions = new Map<string, number>();
  /** Keys with local writes not yet committed: replays from other nodes leave them alone. */
  const pendingWrites = new Map<string, number>();
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
  const queue = openWriteQueue(writer, {
    seenVersion: (write) => seenVersions.get(rowId(write.table.name, write.key)),
    committed(writes, version) {
      for (const write of writes) {
        const id = rowId(write.table.name, write.key);
        if (write.text === undefined) seenVersions.delete(id);
        else seenVersions.set(id, version);
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
    reload: (rows) => applyRows(rows, true),
    abandoned(writes) {
      // Undone only where no later write of this node stands on it (that one fails the same way).
      for (let i = writes.length - 1; i >= 0; i--) {
        const write = writes[i]!;
        if (write.table.textOf(write.key) === write.text) write.table.setText(write.key, write.before);
      }
    },
    unavailable: () => lostConnection,
  });
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

  /** Sets memory and seen versions from rows read from PostgreSQL; `force` also overrides pending local writes. */
  function applyRows(rows: readonly ChangeRow[], force: boolean): void {
    for (const row of rows) {
      const key = JSON.parse(row.key) as TableKey;
      const id = rowId(row.tbl, key);
      if (!force && pendingWrites.has(id)) continue;
      tableNamed(row.tbl).setText(key, row.value ?? undefined);
      if (row.version === null) seenVersions.delete(id);
      else seenVersions.set(id, Number(row.version));
    }
  }

  // The snapshot and the change number it covers, read together; changes after it are replayed.
  let replayedThrough = 0;
  await writer.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  try {
    const { rows: [last] } = await writer.query<{ seq: string }>('SELECT coalesce(max(seq), 0)::text AS seq FROM quarry_store_changes');
    const { rows } = await writer.query<ChangeRow>('SELECT 0::text AS seq, tbl, key, value::text AS value, version::text AS version FROM quarry_store_rows');
    applyRows(rows, true);
    replayedThrough = Number(last!.seq);
  } finally {
    await writer.query('COMMIT');
  }

  let replaying: Promise<void> | null = null;
  let replayAgain = false;
  async function replayOnce(): Promise<void> {
    const { rows } = await listener.query<ChangeRow>(
      `SELECT c.seq::text AS seq, c.tbl, c.key, r.value::text AS value, r.version::text AS version
         FROM quarry_store_changes c LEFT JOIN quarry_store_rows r ON r.tbl = c.tbl AND r.key = c.key
        WHERE c.seq > $1 ORDER BY c.seq`, [replayedThrough]);
    applyRows(rows, false);
    if (rows.length > 0) replayedThrough = Number(rows[rows.length - 1]!.seq);
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
  listener.on('notification', () => { refresh().catch(() => undefined); });
  await refresh();

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
    async close() {
      await queue.idle().catch(() => undefined);
      await Promise.all([writer.end(), listener.end()]);
    },
  };
}

function undo(writes: readonly RowWrite[]): void {
  for (let i = writes.length - 1; i >= 0; i--) writes[i]!.table.setText(writes[i]!.key, writes[i]!.before);
}
