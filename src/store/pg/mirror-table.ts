/**
 * One table of the PostgreSQL engine as an in-memory ordered copy: the JSON text of each record by
 * key, so reads stay synchronous and each get returns a fresh copy (as LMDB's do). Writes go
 * through the engine (`write`), which records them for its SQL transaction; nothing here talks to
 * PostgreSQL.
 */
import type { RangeOptions, Table, TableKey } from '../engine.js';

/** The engine's side of a table: every put or remove passes through it. */
export interface TableWriter {
  write(table: MirrorTable<unknown, TableKey>, key: TableKey, text: string | undefined): void;
  /** A write nobody waits on: its own transaction, settled when committed. */
  writeSoon(table: MirrorTable<unknown, TableKey>, key: TableKey, text: string | undefined): Promise<unknown>;
}

/** LMDB's order: numbers ascending before strings; strings by UTF-16 unit (byte order for the keys the store uses). */
export function compareKeys(a: TableKey, b: TableKey): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class MirrorTable<V, K extends TableKey> implements Table<V, K> {
  private readonly texts = new Map<K, string>();
  private sorted: K[] | null = null;

  constructor(readonly name: string, private readonly writer: TableWriter) {}

  /** The stored JSON, for the engine; undefined when absent. */
  textOf(key: K): string | undefined {
    return this.texts.get(key);
  }

  /** Sets memory only: the engine calls it for writes (its own, undone ones, and other nodes'). */
  setText(key: K, text: string | undefined): void {
    const had = this.texts.has(key);
    if (text === undefined) this.texts.delete(key);
    else this.texts.set(key, text);
    if (had !== (text !== undefined)) this.sorted = null;
  }

  get(key: K): V | undefined {
    const text = this.texts.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as V);
  }

  putSync(key: K, value: V): void {
    this.writer.write(this as MirrorTable<unknown, TableKey>, key, JSON.stringify(value));
  }

  removeSync(key: K): boolean {
    const had = this.texts.has(key);
    this.writer.write(this as MirrorTable<unknown, TableKey>, key, undefined);
    return had;
  }

  put(key: K, value: V): Promise<unknown> {
    return this.writer.writeSoon(this as MirrorTable<unknown, TableKey>, key, JSON.stringify(value));
  }

  remove(key: K): Promise<unknown> {
    return this.writer.writeSoon(this as MirrorTable<unknown, TableKey>, key, undefined);
  }

  getKeysCount(): number {
    return this.texts.size;
  }

  *getRange(options: RangeOptions<K> = {}): Iterable<{ readonly key: K; readonly value: V }> {
    const keys = this.sortedKeys();
    const { start, end, reverse = false, limit = Infinity } = options;
    // Iterates a snapshot of the keys: removing while iterating (as the sweeps do) is safe.
    const inRange = (key: K): boolean => reverse
      ? (start === undefined || compareKeys(key, start) <= 0) && (end === undefined || compareKeys(key, end) > 0)
      : (start === undefined || compareKeys(key, start) >= 0) && (end === undefined || compareKeys(key, end) < 0);
    let yielded = 0;
    for (let i = 0; i < keys.length && yielded < limit; i++) {
      const key = keys[reverse ? keys.length - 1 - i : i]!;
      if (!inRange(key)) {
        const pastEnd = end !== undefined && (reverse ? compareKeys(key, end) <= 0 : compareKeys(key, end) >= 0);
        if (pastEnd) return;
        continue;
      }
      const text = this.texts.get(key);
      if (text === undefined) continue;
      yielded++;
      yield { key, value: JSON.parse(text) as V };
    }
  }

  private sortedKeys(): K[] {
    this.sorted ??= [...this.texts.keys()].sort(compareKeys);
    return this.sorted;
  }
}
