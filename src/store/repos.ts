/**
 * Repository registry records in the instance store, keyed by name, with stable increasing ids.
 * Pure bookkeeping: nothing here touches git or the mirrors on disk.
 */

import { createError } from '../errors.js';
import type { Store } from './open.js';

export interface RepoRecord {
  /** Never reused, even after the repository is removed. */
  readonly id: number;
  readonly name: string;
  /** Absolute path for local sources, the URL as given otherwise. */
  readonly source: string;
  /** Bare mirror location, relative to the data directory. */
  readonly mirrorPath: string;
  /** ISO 8601 timestamps. */
  readonly addedAt: string;
  readonly lastFetchedAt: string | null;
  /** Set while the most recent fetch failed; cleared by the next success. */
  readonly lastFetchError?: string;
  /** Set while the most recent index run failed (the previous index keeps serving); cleared by the next success. */
  readonly lastIndexError?: string;
  readonly defaultBranch: string;
  readonly fork: boolean;
  readonly archived: boolean;
}

export type RepoUpdate = Partial<Omit<RepoRecord, 'id' | 'name'>>;

const NEXT_REPO_ID = 'nextRepoId';

/** Takes the next repository id; ids of abandoned additions are simply never used. */
export function reserveRepoId(store: Store): number {
  return store.root.transactionSync(() => {
    const stored = store.meta.get(NEXT_REPO_ID);
    const next = typeof stored === 'number' ? stored : 1;
    store.meta.putSync(NEXT_REPO_ID, next + 1);
    return next;
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

export function getRepo(store: Store, name: string): RepoRecord | undefined {
  return store.repos.get(name);
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
