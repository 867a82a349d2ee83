/**
 * The change log's reads and its pruning. A node replays the changes after the last one it applied,
 * in one statement that also reads the log's horizon: when the changes it needs were pruned away
 * (it was disconnected long), it loads a whole snapshot instead. Pruning keeps the newest changes
 * only, so the log's size is bounded whatever the write rate.
 */
import type pg from 'pg';

/** One row as PostgreSQL has it now (value and version null: no row), from a change numbered seq. */
export interface StoredRow { seq: string; tbl: string; key: string; value: string | null; version: string | null }

export type Replay =
  | { readonly kind: 'changes'; readonly rows: readonly StoredRow[] }
  /** Changes after `since` were pruned: only a snapshot brings this node up to date. */
  | { readonly kind: 'pruned' };

export interface Snapshot {
  readonly rows: readonly StoredRow[];
  /** Every change numbered up to here is in the rows. */
  readonly through: number;
}

/** The changes after `since`, each with its row's present value; one round trip, cheap when there are none. */
export async function readChangesSince(client: pg.Client, since: number): Promise<Replay> {
  // Named: prepared once per connection, so the statement asked before every request is not planned each time.
  const { rows } = await client.query<StoredRow & { pruned: string }>({
    name: 'quarry_changes_since',
    text: `SELECT (SELECT pruned_through FROM quarry_store_log_horizon)::text AS pruned,
            c.seq::text AS seq, c.tbl, c.key, r.value::text AS value, r.version::text AS version
       FROM (VALUES (1)) AS one (x)
       LEFT JOIN (quarry_store_changes c LEFT JOIN quarry_store_rows r ON r.tbl = c.tbl AND r.key = c.key) ON c.seq > $1
      ORDER BY c.seq`,
    values: [since],
  });
  if (rows.length > 0 && Number(rows[0]!.pruned) > since) return { kind: 'pruned' };
  // No change after `since`: one row, its change columns null.
  return { kind: 'changes', rows: rows.filter((row) => row.seq !== null) };
}

/** Every row, and the change number they cover, read in one snapshot. */
export async function readSnapshot(client: pg.Client): Promise<Snapshot> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  try {
    const { rows: [head] } = await client.query<{ seq: string }>(
      `SELECT greatest((SELECT max(seq) FROM quarry_store_changes), (SELECT pruned_through FROM quarry_store_log_horizon), 0)::text AS seq`);
    const { rows } = await client.query<StoredRow>('SELECT 0::text AS seq, tbl, key, value::text AS value, version::text AS version FROM quarry_store_rows');
    return { rows, through: Number(head!.seq) };
  } finally {
    await client.query('COMMIT');
  }
}

export interface PruneOptions {
  /** Changes kept: a node disconnected for fewer than this many catches up from the log. */
  readonly keepChanges: number;
  /** Pruned when a change's number is a multiple of this (whichever node made it). */
  readonly every: number;
}

export const DEFAULT_PRUNE: PruneOptions = { keepChanges: 10_000, every: 500 };

/** Inside the write transaction that made change `seq` (under the write lock, so the horizon moves in order). */
export async function pruneIfDue(client: pg.Client, seq: number, options: PruneOptions): Promise<void> {
  if (seq % options.every !== 0 || seq <= options.keepChanges) return;
  const through = seq - options.keepChanges;
  await client.query('DELETE FROM quarry_store_changes WHERE seq <= $1', [through]);
  await client.query('UPDATE quarry_store_log_horizon SET pruned_through = greatest(pruned_through, $1)', [through]);
}
