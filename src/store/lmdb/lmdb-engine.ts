/**
 * The embedded engine: one LMDB environment whose sub-databases are the tables, used as they are
 * (LMDB's synchronous reads and write transactions are the interface in ../engine.ts). Every
 * process on the machine opening the same directory shares it.
 */
import { mkdirSync } from 'node:fs';
import { open } from 'lmdb';
import type { StoreEngine, Table, TableKey } from '../engine.js';

// Room for the sub-databases later stores add (OAuth clients, grants, ...).
const MAX_SUB_DATABASES = 64;

export function openLmdbEngine(path: string): StoreEngine {
  mkdirSync(path, { recursive: true });
  const root = open({ path, maxDbs: MAX_SUB_DATABASES });
  return {
    transactionSync: (action) => root.transactionSync(action),
    // JSON keeps records readable by any tool and free of msgpack's shared-structure bookkeeping.
    openDB: <V, K extends TableKey>(name: string): Table<V, K> => root.openDB<V, K>(name, { encoding: 'json' }),
    get flushed() {
      return root.flushed;
    },
    // transactionSync commits before it returns: other processes read it from then on.
    committed: () => Promise.resolve(),
    // Every read opens a fresh LMDB read snapshot: nothing to catch up on.
    refresh: () => Promise.resolve(),
    // Other processes' writes show through LMDB itself, read by read: no replay to count.
    outsideChanges: 0,
    // A write transaction that throws leaves nothing behind to undo later.
    undoneWrites: 0,
    available: true,
    close: () => root.close(),
  };
}
