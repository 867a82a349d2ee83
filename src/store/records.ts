/**
 * What the instance store holds: the Store handle with one sub-database per kind of record, and
 * those records. Types only and importing no store module, so every store module can share them
 * without an import circle (open.ts opens the environment; users.ts and the others use it).
 */

import type { StoreEngine, Table } from './engine.js';

export interface Store {
  /** The LMDB directory, or the PostgreSQL URL without its password. */
  readonly path: string;
  /** Write transactions, further tables and durability (engine.ts): LMDB or PostgreSQL. */
  readonly root: StoreEngine;
  /** Repository registry, keyed by repository name. */
  readonly repos: Table<RepoRecord, string>;
  /** Counters and other single values, keyed by a fixed name. */
  readonly meta: Table<unknown, string>;
  /** Accounts keyed by id, and the id of each lower-cased username. */
  readonly users: Table<UserRecord, number>;
  readonly usernames: Table<number, string>;
  /** Access tokens keyed by id, the id of each SHA-256 token hash, and last-use times apart. */
  readonly tokens: Table<StoredAccessToken, number>;
  readonly tokenHashes: Table<number, string>;
  readonly tokenLastUsed: Table<string, number>;
  /** Custom roles (and the USER role once edited) keyed by name; custom roles held per user id. */
  readonly roles: Table<RoleRecord, string>;
  readonly userRoles: Table<string[], number>;
  /** Restrictions of non-public repositories, keyed by repository name. */
  readonly repoRestrictions: Table<RepoRestriction, string>;
  /** Every site configuration revision, keyed by its id. */
  readonly siteConfig: Table<SiteConfigRevision, number>;
  /** Browser sign-in sessions, keyed by the SHA-256 of the session id. */
  readonly sessions: Table<SessionRecord, string>;
  /** OAuth clients keyed by client_id; grant families (one per authorization) keyed by id. */
  readonly oauthClients: Table<OAuthClientRecord, string>;
  readonly oauthFamilies: Table<OAuthFamilyRecord, string>;
  /** OAuth secrets (codes, device codes, access and refresh tokens) keyed by their SHA-256; user codes keyed by themselves. */
  readonly oauthSecrets: Table<OAuthSecretRecord, string>;
  /** Remembered consent, keyed `userId:clientId`. */
  readonly oauthConsents: Table<OAuthConsentRecord, string>;
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

export interface SessionRecord {
  readonly userId: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface OAuthClientRecord {
  /** `sgo_cid_…`, Sourcegraph's prefix for OAuth client ids. */
  readonly id: string;
  readonly name: string;
  /** SHA-256 (hex) of the client secret; null for public clients. */
  readonly secretHash: string | null;
  readonly redirectUris: readonly string[];
  /** The scopes this client may ask for (registered clients: `mcp` only). */
  readonly scopes: readonly string[];
  readonly grantTypes: readonly string[];
  readonly tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
  /** Registered through RFC 7591: stops working whenever dynamic registration is off. */
  readonly dynamic: boolean;
  /** client_credentials acts as this service account; null when the client cannot use that grant. */
  readonly serviceAccountId: number | null;
  /** The RFC 7591 metadata echoed back (client_uri, logo_uri, software_id, ...). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO 8601. */
  readonly createdAt: string;
  /** A client whose id is the URL of its metadata document: when it was read, and until when (epoch ms) that copy is used. */
  readonly metadataDocument?: { readonly fetchedAt: number; readonly freshUntil: number };
}

/** Every token issued from one authorization (and its refreshes): revoked together. */
export interface OAuthFamilyRecord {
  readonly id: string;
  /** Negative, so it never names an access token's id: the per-caller limits key on it. */
  readonly number: number;
  readonly clientId: string;
  readonly userId: number;
  readonly revoked: boolean;
  readonly createdAt: number;
  /** When its last-expiring token expires (epoch ms): after that the family is purged. Absent on families issued before it was kept. */
  readonly expiresAt?: number;
}

/** A code, device code, access or refresh token (stored under its hash), or a user code (stored as typed). */
export type OAuthSecretRecord = OAuthCodeRecord | OAuthDeviceRecord | OAuthUserCodeRecord | OAuthTokenRecord;

interface Expiring {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** The audience, as a path on this server (`/` is all of it). */
  readonly resource: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export interface OAuthCodeRecord extends Expiring {
  readonly kind: 'code';
  readonly userId: number;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  /** Set once exchanged: a second exchange revokes what the first one issued. */
  readonly familyId: string | null;
}

export interface OAuthDeviceRecord extends Expiring {
  readonly kind: 'device';
  readonly userCode: string;
  readonly status: 'pending' | 'approved' | 'denied' | 'used';
  readonly userId: number | null;
  readonly lastPolledAt: number;
  readonly intervalSeconds: number;
}

export interface OAuthUserCodeRecord {
  readonly kind: 'user-code';
  /** The hash its device code is stored under. */
  readonly deviceKey: string;
  readonly expiresAt: number;
}

export interface OAuthTokenRecord extends Expiring {
  readonly kind: 'access' | 'refresh';
  readonly familyId: string;
  readonly userId: number;
  readonly issuedAt: number;
  /** Refresh tokens once used: when, and the successor pair sealed with a key only the old token gives. */
  readonly rotatedAt?: number;
  readonly sealedSuccessor?: string;
}

export interface OAuthConsentRecord {
  readonly scopes: readonly string[];
  readonly resources: readonly string[];
  readonly updatedAt: string;
}
