/**
 * The instance store: one LMDB environment at `<data>/store` with a named sub-database per kind
 * of record. Only store/ and index/ may import lmdb; other layers go through store functions.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { RepoRecord } from './repos.js';
import type { UserRecord } from './users.js';
import type { StoredAccessToken } from './tokens.js';
import type { RoleRecord } from './roles.js';
import type { RepoRestriction } from './repo-permissions.js';
import type { SiteConfigRevision } from './site-config.js';

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

// Room for the sub-databases later stores add (OAuth clients, grants, ...).
const MAX_SUB_DATABASES = 64;

export function openStore(dataDir: string): Store {
  const path = join(dataDir, 'store');
  mkdirSync(path, { recursive: true });
  const root = open({ path, maxDbs: MAX_SUB_DATABASES });
  // JSON keeps records readable by any tool and free of msgpack's shared-structure bookkeeping.
  const json = { encoding: 'json' } as const;
  return {
    path,
    root,
    repos: root.openDB<RepoRecord, string>('repos', json),
    meta: root.openDB<unknown, string>('meta', json),
    users: root.openDB<UserRecord, number>('users', json),
    usernames: root.openDB<number, string>('usernames', json),
    tokens: root.openDB<StoredAccessToken, number>('tokens', json),
    tokenHashes: root.openDB<number, string>('tokenHashes', json),
    tokenLastUsed: root.openDB<string, number>('tokenLastUsed', json),
    roles: root.openDB<RoleRecord, string>('roles', json),
    userRoles: root.openDB<string[], number>('userRoles', json),
    repoRestrictions: root.openDB<RepoRestriction, string>('repoRestrictions', json),
    siteConfig: root.openDB<SiteConfigRevision, number>('siteConfig', json),
    close: () => root.close(),
  };
}
