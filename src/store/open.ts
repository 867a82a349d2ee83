/**
 * Opens the instance store: one LMDB environment at `<data>/store` with a named sub-database per
 * kind of record (their types in records.ts). Only store/ and index/ may import lmdb; other layers
 * go through store functions.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import type {
  OAuthClientRecord, OAuthConsentRecord, OAuthFamilyRecord, OAuthSecretRecord, RepoRecord, RepoRestriction, RoleRecord,
  SessionRecord, SiteConfigRevision, Store, StoredAccessToken, UserRecord,
} from './records.js';

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
    sessions: root.openDB<SessionRecord, string>('sessions', json),
    oauthClients: root.openDB<OAuthClientRecord, string>('oauthClients', json),
    oauthFamilies: root.openDB<OAuthFamilyRecord, string>('oauthFamilies', json),
    oauthSecrets: root.openDB<OAuthSecretRecord, string>('oauthSecrets', json),
    oauthConsents: root.openDB<OAuthConsentRecord, string>('oauthConsents', json),
    close: () => root.close(),
  };
}
