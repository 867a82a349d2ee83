/**
 * Repository registry records in the instance store, keyed by name, with stable random ids.
 * Pure bookkeeping: nothing here touches git or the mirrors on disk.
 */

import { randomInt } from 'node:crypto';
import { createError } from '../errors.js';
import type { RepoRecord, Store } from './records.js';

export type RepoUpdate = Partial<Omit<RepoRecord, 'id' | 'name'>>;

/** Where the sequential ids of earlier versions stopped: every id below it may be in use. */
const LEGACY_NEXT_REPO_ID = 'nextRepoId';
const ISSUED_PREFIX = 'repoId:';
/** Ids fit the 31 bits of a positive int32, as Sourcegraph's numeric repository ids do. */
const MAX_REPO_ID = 2 ** 31 - 1;
/** Two billion ids make a repeat draw rare; this many in a row only happens once nearly all are taken. */
const MAX_ATTEMPTS = 10_000;

/**
 * Takes a new repository id: random, so one id says nothing about the others (sequential ids let
 * a caller count and guess hidden repositories). Every id issued is remembered, so none is ever
 * reused, even after its repository is removed; ids of abandoned additions are simply never used.
 */
export function reserveRepoId(store: Store): number {
  return store.root.transactionSync(() => {
    const legacy = store.meta.get(LEGACY_NEXT_REPO_ID);
    const lowest = typeof legacy === 'number' ? Math.min(Math.max(legacy, 1), MAX_REPO_ID) : 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const id = randomInt(lowest, MAX_REPO_ID + 1);
      if (store.meta.get(`${ISSUED_PREFIX}${id}`) !== undefined) continue;
      store.meta.putSync(`${ISSUED_PREFIX}${id}`, true);
      return id;
    }
    throw createError('INTERNAL', 'no free repository id is left');
  });
}

/** Stores a new record; REPO_EXISTS if the name is taken (checked inside the write transaction). */
export function addRepo(store: Store, record: RepoRecord): RepoRecord {
  return store.root.transactionSync(() => {
    if (store.repos.get(record.name) !== undefined) {
      throw createError('REPO_EXISTS', `repository already exists: ${record.name}`, { name: record.name });
    }
    store.repos.putSync(record.name, record);
    return record;
  });
}

/**
 * Names that can have been stored: repository names have at most 200 characters, while a key of
 * some kilobytes makes LMDB throw. Longer names from callers are simply not found.
 */
const MAX_LOOKUP_BYTES = 1024;

export function isStorableRepoName(name: string): boolean {
  return name.length <= MAX_LOOKUP_BYTES && Buffer.byteLength(name, 'utf8') <= MAX_LOOKUP_BYTES;
}

export function getRepo(store: Store, name: string): RepoRecord | undefined {
  return isStorableRepoName(name) ? store.repos.get(name) : undefined;
}

/** Every record, ordered by name. */
export function listRepos(store: Store): RepoRecord[] {
  return Array.from(store.repos.getRange(), ({ value }) => value);
}

/** Deletes the record and returns it, or undefined when there was none. */
export function removeRepo(store: Store, name: string): RepoRecord | undefined {
  return store.root.transactionSync(() => {
    const existing = store.repos.get(name);
    if (existing !== undefined) store.repos.removeSync(name);
    return existing;
  });
}

/** Applies `patch` (an undefined value deletes that field); undefined when the record is gone. */
export function updateRepo(store: Store, name: string, patch: RepoUpdate): RepoRecord | undefined {
  return store.root.transactionSync(() => {
    const existing = store.repos.get(name);
    if (existing === undefined) return undefined;
    const merged: Record<string, unknown> = { ...existing, ...patch, id: existing.id, name: existing.name };
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    const updated = merged as unknown as RepoRecord;
    store.repos.putSync(name, updated);
    return updated;
  });
}
