/**
 * Opens the instance store over an engine: LMDB at `<data>/store` (the default), or PostgreSQL when
 * a `postgres://` URL is given. One table per kind of record (their types in records.ts). Only
 * store/ may import lmdb and pg; other layers go through store functions.
 */

import { join } from 'node:path';
import type { StoreEngine } from './engine.js';
import { openLmdbEngine } from './lmdb/lmdb-engine.js';
import { openPgEngine } from './pg/pg-engine.js';
import type {
  OAuthClientRecord, OAuthConsentRecord, OAuthFamilyRecord, OAuthSecretRecord, RepoRecord, RepoRestriction, RoleRecord,
  SessionRecord, SiteConfigRevision, Store, StoredAccessToken, UserRecord,
} from './records.js';

/** The embedded store of one machine. */
export function openStore(dataDir: string): Store {
  const path = join(dataDir, 'store');
  return storeOver(path, openLmdbEngine(path));
}

/** LMDB under the data directory when `databaseUrl` is null, PostgreSQL (migrated, then loaded) otherwise. */
export async function openStoreAt(dataDir: string, databaseUrl: string | null): Promise<Store> {
  if (databaseUrl === null) return openStore(dataDir);
  return storeOver(withoutPassword(databaseUrl), await openPgEngine(databaseUrl));
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}

export function storeOver(path: string, root: StoreEngine): Store {
  return {
    path,
    root,
    repos: root.openDB<RepoRecord, string>('repos'),
    meta: root.openDB<unknown, string>('meta'),
    users: root.openDB<UserRecord, number>('users'),
    usernames: root.openDB<number, string>('usernames'),
    tokens: root.openDB<StoredAccessToken, number>('tokens'),
    tokenHashes: root.openDB<number, string>('tokenHashes'),
    tokenLastUsed: root.openDB<string, number>('tokenLastUsed'),
    roles: root.openDB<RoleRecord, string>('roles'),
    userRoles: root.openDB<string[], number>('userRoles'),
    repoRestrictions: root.openDB<RepoRestriction, string>('repoRestrictions'),
    siteConfig: root.openDB<SiteConfigRevision, number>('siteConfig'),
    sessions: root.openDB<SessionRecord, string>('sessions'),
    oauthClients: root.openDB<OAuthClientRecord, string>('oauthClients'),
    oauthFamilies: root.openDB<OAuthFamilyRecord, string>('oauthFamilies'),
    oauthSecrets: root.openDB<OAuthSecretRecord, string>('oauthSecrets'),
    oauthConsents: root.openDB<OAuthConsentRecord, string>('oauthConsents'),
    close: () => root.close(),
  };
}
