/**
 * Commits the PostgreSQL engine's write transactions one after another, each as one SQL
 * transaction: under one advisory lock (so change numbers commit in their order), refused with
 * STORE_CONFLICT when a row changed since this node saw it, then the rows, the change log and a
 * NOTIFY (and, every so often, the log pruned). Knows nothing of the in-memory tables beyond the
 * callbacks it is given.
 */
import type pg from 'pg';
import { createError, isQuarryError, type QuarryError } from '../../errors.js';
import type { TableKey } from '../engine.js';
import { pruneIfDue, type PruneOptions, type StoredRow } from './change-log.js';
import { CHANNEL } from './link.js';
import type { MirrorTable } from './mirror-table.js';

/** One put (text set) or remove (text undefined), with the memory it replaced (to undo). */
export interface RowWrite {
  readonly table: MirrorTable<unknown, TableKey>;
  readonly key: TableKey;
  readonly text: string | undefined;
  readonly before: string | undefined;
}

export interface WriteQueueHooks {
  /** The version of the row when this node last saw it; undefined: no row. */
  seenVersion(write: RowWrite): number | undefined;
  committed(writes: readonly RowWrite[], version: number): void;
  /** Called once per pushed transaction, committed or not. */
  settled(writes: readonly RowWrite[]): void;
  /** Rows read again after a conflict (value null: no row), to replace memory. */
  reload(rows: readonly StoredRow[]): void;
  /** Writes PostgreSQL never got (the connection failed): memory goes back where it can. */
  abandoned(writes: readonly RowWrite[]): void;
  /** The connection to write on, or why there is none now. */
  connection(): pg.Client | QuarryError;
}

export interface WriteQueue {
  push(writes: RowWrite[]): Promise<unknown>;
  /** Settles when everything pushed so far is committed; rejects with the first failure among them. */
  idle(): Promise<unknown>;
}

const WRITE_LOCK = 0x51a3_0002;

export function openWriteQueue(hooks: WriteQueueHooks, prune: PruneOptions): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  const inFlight = new Set<Promise<unknown>>();

  async function commit(writes: readonly RowWrite[]): Promise<void> {
    const client = hooks.connection();
    if (isQuarryError(client)) {
      hooks.abandoned(writes);
      throw client;
    }
    // The last write of each row is the one stored; the first one's seen version is what must still hold.
    const last = new Map<string, RowWrite>();
    for (const write of writes) last.set(`${write.table.name}\u0000${JSON.stringify(write.key)}`, write);
    const rows = [...last.values()];
    const tbls = rows.map((w) => w.table.name);
    const keys = rows.map((w) => JSON.stringify(w.key));
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      const current = await client.query<{ tbl: string; key: string; version: string }>(
        `SELECT r.tbl, r.key, r.version::text AS version FROM quarry_store_rows r
           JOIN unnest($1::text[], $2::text[]) AS u(tbl, key) ON r.tbl = u.tbl AND r.key = u.key`, [tbls, keys]);
      const versions = new Map(current.rows.map((r) => [`${r.tbl}\u0000${r.key}`, Number(r.version)]));
      const stale = rows.filter((w) => versions.get(`${w.table.name}\u0000${JSON.stringify(w.key)}`) !== hooks.seenVersion(w));
      if (stale.length > 0) {
        await client.query('ROLLBACK');
        // Every row of the refused transaction, not only the stale ones: memory had them all.
        await reloadRows(client, rows);
        throw createError('STORE_CONFLICT', `another node changed ${stale.length} of the records this write read`, { tables: [...new Set(stale.map((w) => w.table.name))] });
      }
      const { rows: [next] } = await client.query<{ seq: string }>(`SELECT nextval('quarry_store_seq')::text AS seq`);
      const version = Number(next!.seq);
      const puts = rows.filter((w) => w.text !== undefined);
      const removes = rows.filter((w) => w.text === undefined);
      if (puts.length > 0) {
        await client.query(
          `INSERT INTO quarry_store_rows (tbl, key, value, version)
             SELECT tbl, key, value::jsonb, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(tbl, key, value)
           ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value, version = excluded.version`,
          [puts.map((w) => w.table.name), puts.map((w) => JSON.stringify(w.key)), puts.map((w) => w.text), version]);
      }
      if (removes.length > 0) {
        await client.query(
          `DELETE FROM quarry_store_rows r USING unnest($1::text[], $2::text[]) AS u(tbl, key) WHERE r.tbl = u.tbl AND r.key = u.key`,
          [removes.map((w) => w.table.name), removes.map((w) => JSON.stringify(w.key))]);
      }
      await client.query('INSERT INTO quarry_store_changes (seq, tbl, key) SELECT $3, tbl, key FROM unnest($1::text[], $2::text[]) AS u(tbl, key)', [tbls, keys, version]);
      await pruneIfDue(client, version, prune);
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, String(version)]);
      await client.query('COMMIT');
      hooks.committed(rows, version);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (isQuarryError(error)) throw error;
      hooks.abandoned(writes);
      throw createError('STORE_UNAVAILABLE', `PostgreSQL did not take the write: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function reloadRows(client: pg.Client, stale: readonly RowWrite[]): Promise<void> {
    const tbls = stale.map((w) => w.table.name);
    const keys = stale.map((w) => JSON.stringify(w.key));
    const { rows } = await client.query<StoredRow>(
      `SELECT '0' AS seq, u.tbl, u.key, r.value::text AS value, r.version::text AS version
         FROM unnest($1::text[], $2::text[]) AS u(tbl, key)
         LEFT JOIN quarry_store_rows r ON r.tbl = u.tbl AND r.key = u.key`, [tbls, keys]);
    hooks.reload(rows);
  }

  return {
    push(writes) {
      const done = tail.then(() => commit(writes)).finally(() => hooks.settled(writes));
      tail = done.catch(() => undefined);
      inFlight.add(done);
      done.then(() => inFlight.delete(done), () => inFlight.delete(done));
      return done;
    },
    idle: () => Promise.all([...inFlight]),
  };
}
