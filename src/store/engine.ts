/**
 * The engine-neutral store interface: the subset of LMDB the store modules use (keyed tables with
 * synchronous get/put/remove and ordered ranges, synchronous write transactions). LMDB satisfies it
 * directly (lmdb/); PostgreSQL through an in-memory mirror (pg/). Types only: no engine imported.
 */

export type TableKey = string | number;

export interface RangeOptions<K extends TableKey> {
  /** Inclusive lower bound (upper bound when reverse). */
  readonly start?: K;
  /** Exclusive upper bound (lower bound when reverse). */
  readonly end?: K;
  readonly reverse?: boolean;
  readonly limit?: number;
}

/** One kind of record, ordered by key: numbers ascending, strings in byte order. */
export interface Table<V, K extends TableKey> {
  get(key: K): V | undefined;
  /** Inside transactionSync the write joins it; outside, it is a transaction of its own. */
  putSync(key: K, value: V): void;
  /** True when there was a record to remove. */
  removeSync(key: K): boolean;
  /** Written soon, in a transaction of its own: for writes nobody waits on (last-use times). */
  put(key: K, value: V): Promise<unknown>;
  remove(key: K): Promise<unknown>;
  getRange(options?: RangeOptions<K>): Iterable<{ readonly key: K; readonly value: V }>;
  getKeysCount(): number;
}

export interface StoreEngine {
  /** Runs `action` as one write transaction: all its writes, or none if it throws. Reads inside see them. */
  transactionSync<T>(action: () => T): T;
  /** The table of that name, created empty when new (records stored as JSON). */
  openDB<V, K extends TableKey>(name: string): Table<V, K>;
  /** Settles once every write made so far is on disk; rejects if one of them could not be stored (PostgreSQL: a conflict or an outage). */
  readonly flushed: Promise<unknown>;
  /** Settles once every write made so far is committed where every process sharing the store reads it; rejects as `flushed` does. */
  committed(): Promise<unknown>;
  /**
   * Brings reads up to date with every write committed by any process before the call (LMDB's
   * reads always are). Rejects with STORE_UNAVAILABLE (details.retryAfterSeconds) while the
   * database cannot be reached, rather than waiting for it.
   */
  refresh(): Promise<void>;
  /** Moves whenever reads change other than by this process's own writes (PostgreSQL: replays, undone writes); LMDB: always 0. */
  readonly outsideChanges: number;
  /** Moves whenever writes of this process are undone (refused with STORE_CONFLICT, or lost with the connection); LMDB: always 0. */
  readonly undoneWrites: number;
  /** False while the database cannot be reached (PostgreSQL reconnecting); LMDB: always true. */
  readonly available: boolean;
  close(): Promise<void>;
}
