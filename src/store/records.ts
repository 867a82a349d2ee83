/**
 * What the instance store holds: the Store handle with one sub-database per kind of record, and
 * those records. Types only and importing no store module, so every store module can share them
 * without an import circle (open.ts opens the environment; users.ts and the others use it).
 */

import type { Database, RootDatabase } from 'lmdb';

export interface Store {
  readonly path: string;
  readonly root: RootDatabase;
  /** Repository registry, keyed by repository name. */
  readonly repos: Database<RepoRecord, string>;
  /** Counters and other single values, keyed by a fixed name. */
  readonly meta: Database<unknown, string>;
  /** Accounts keyed by id, and the id of each lower-cased username. */
  readonly users: Database<UserRecord, number>;
  readonly usernames: Database<number, string>;
  /** Access tokens keyed by id, the id of each SHA-256 token hash, and last-use times apart. */
  readonly tokens: Database<StoredAccessToken, number>;
  readonly tokenHashes: Database<number, string>;
  readonly tokenLastUsed: Database<string, number>;
  /** Custom roles (and the USER role once edited) keyed by name; custom roles held per user id. */
  readonly roles: Database<RoleRecord, string>;
  readonly userRoles: Database<string[], number>;
  /** Restrictions of non-public repositories, keyed by repository name. */
  readonly repoRestrictions: Database<RepoRestriction, string>;
  /** Every site configuration revision, keyed by its id. */
  readonly siteConfig: Database<SiteConfigRevision, number>;
  close(): Promise<void>;
}

export interface RepoRecord {
  /** Random (opaque) for repositories added since ids stopped being sequential; never reused. */
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

export interface UserRecord {
  readonly id: number;
  readonly username: string;
  readonly displayName: string | null;
  readonly email: string | null;
  readonly passwordHash: string | null;
  readonly siteAdmin: boolean;
  readonly serviceAccount: boolean;
  /** ISO 8601 timestamps. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AccessTokenRecord {
  readonly id: number;
  readonly userId: number;
  readonly scopes: readonly string[];
  readonly note: string;
  readonly creatorId: number;
  /** ISO 8601 timestamps. */
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revoked: boolean;
}

/** What is stored: the record without its last use (kept apart so touching never races a revoke). */
export type StoredAccessToken = Omit<AccessTokenRecord, 'lastUsedAt'> & { readonly hash: string };

export interface RoleRecord {
  readonly name: string;
  readonly permissions: readonly string[];
  /** System roles cannot be deleted, assigned or removed. */
  readonly system: boolean;
  readonly createdAt: string;
}

export interface RepoRestriction {
  readonly repo: string;
  readonly users: readonly number[];
  readonly roles: readonly string[];
  readonly updatedAt: string;
}

export interface SiteConfigRevision {
  readonly id: number;
  readonly contents: string;
  readonly createdAt: string;
}
