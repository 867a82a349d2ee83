/**
 * OAuth access and refresh tokens and the grant families they belong to. Tokens are random strings
 * stored only as SHA-256; a refresh token is used once: it rotates to a successor pair sealed with a
 * key only the old token yields, so a client's retry within the grace gets that same pair back, and
 * a reuse after it revokes the whole family. Revocations move the store generation.
 */

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { takeNextId } from './counters.js';
import { bumpGeneration } from './generation.js';
import type { OAuthFamilyRecord, OAuthTokenRecord, Store } from './records.js';

export const ACCESS_TOKEN_PREFIX = 'sgo_at_';
const REFRESH_TOKEN_PREFIX = 'sgo_rt_';

export interface GrantScope {
  readonly clientId: string;
  readonly userId: number;
  readonly scopes: readonly string[];
  readonly resource: string;
}

export interface Lifetimes {
  readonly accessMs: number;
  /** null: no refresh token (client_credentials). */
  readonly refreshMs: number | null;
}

export interface IssuedTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  readonly accessExpiresAt: number;
  readonly scopes: readonly string[];
  readonly familyId: string;
}

export function secretKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A new grant family; call inside a write transaction. */
export function createFamily(store: Store, clientId: string, userId: number, now = Date.now()): OAuthFamilyRecord {
  const family: OAuthFamilyRecord = {
    id: randomBytes(16).toString('hex'), number: -takeNextId(store, 'nextOAuthFamily'), clientId, userId, revoked: false, createdAt: now,
  };
  store.oauthFamilies.putSync(family.id, family);
  return family;
}

/** Issues an access token (and a refresh token unless refreshMs is null) in the family; inside a write transaction. */
export function issueTokens(store: Store, grant: GrantScope, familyId: string, lifetimes: Lifetimes, now = Date.now()): IssuedTokens {
  const accessToken = randomSecret(ACCESS_TOKEN_PREFIX);
  const base = { clientId: grant.clientId, userId: grant.userId, scopes: [...grant.scopes], resource: grant.resource, familyId, issuedAt: now };
  const accessExpiresAt = now + lifetimes.accessMs;
  store.oauthSecrets.putSync(secretKey(accessToken), { ...base, kind: 'access', expiresAt: accessExpiresAt });
  let refreshToken: string | null = null;
  if (lifetimes.refreshMs !== null) {
    refreshToken = randomSecret(REFRESH_TOKEN_PREFIX);
    store.oauthSecrets.putSync(secretKey(refreshToken), { ...base, kind: 'refresh', expiresAt: now + lifetimes.refreshMs });
  }
  const lastExpiry = Math.max(accessExpiresAt, lifetimes.refreshMs === null ? 0 : now + lifetimes.refreshMs);
  const family = store.oauthFamilies.get(familyId);
  if (family !== undefined && (family.expiresAt ?? 0) < lastExpiry) store.oauthFamilies.putSync(familyId, { ...family, expiresAt: lastExpiry });
  return { accessToken, refreshToken, accessExpiresAt, scopes: base.scopes, familyId };
}

/** A new family and its first tokens, in one transaction. */
export function grantTokens(store: Store, grant: GrantScope, lifetimes: Lifetimes, now = Date.now()): IssuedTokens {
  return store.root.transactionSync(() => issueTokens(store, grant, createFamily(store, grant.clientId, grant.userId, now).id, lifetimes, now));
}

/** A live token of the kind: stored, unexpired, in an unrevoked family; with its family. */
export function findOAuthToken(store: Store, token: string, kind: 'access' | 'refresh', now = Date.now()): { record: OAuthTokenRecord; family: OAuthFamilyRecord } | undefined {
  if (token.length > 200) return undefined;
  const record = store.oauthSecrets.get(secretKey(token));
  if (record === undefined || record.kind !== kind || record.expiresAt <= now) return undefined;
  const family = store.oauthFamilies.get(record.familyId);
  if (family === undefined || family.revoked) return undefined;
  return { record, family };
}

export type Rotation =
  | { readonly ok: true; readonly tokens: IssuedTokens; readonly replayed: boolean }
  | { readonly ok: false; readonly reason: 'unknown' | 'replayed' };

/**
 * Uses a refresh token of `clientId` once. Within `graceMs` of its first use it answers the same
 * successor again (a client's retry, or parallel requests that raced); later the family is revoked.
 */
export function rotateRefreshToken(store: Store, refreshToken: string, clientId: string, lifetimes: Lifetimes, graceMs: number, now = Date.now()): Rotation {
  return store.root.transactionSync((): Rotation => {
    const found = findOAuthToken(store, refreshToken, 'refresh', now);
    if (found === undefined || found.record.clientId !== clientId) return { ok: false, reason: 'unknown' };
    const { record } = found;
    if (record.rotatedAt !== undefined) {
      const successor = record.sealedSuccessor === undefined ? null : unseal(refreshToken, record.sealedSuccessor);
      if (now - record.rotatedAt <= graceMs && successor !== null && findOAuthToken(store, successor.refreshToken ?? '', 'refresh', now) !== undefined) {
        return { ok: true, tokens: successor, replayed: true };
      }
      revokeFamily(store, record.familyId);
      return { ok: false, reason: 'replayed' };
    }
    const tokens = issueTokens(store, record, record.familyId, lifetimes, now);
    store.oauthSecrets.putSync(secretKey(refreshToken), { ...record, rotatedAt: now, sealedSuccessor: seal(refreshToken, tokens) });
    return { ok: true, tokens, replayed: false };
  });
}

/** Marks the family revoked: every token of it stops working on the next request of any process. */
export function revokeFamily(store: Store, familyId: string): void {
  store.root.transactionSync(() => {
    const family = store.oauthFamilies.get(familyId);
    if (family === undefined || family.revoked) return;
    store.oauthFamilies.putSync(familyId, { ...family, revoked: true });
    bumpGeneration(store);
  });
}

/** RFC 7009: an access token alone, or a refresh token with its whole family; unknown tokens and other clients' are ignored. */
export function revokeOAuthToken(store: Store, token: string, clientId: string): void {
  store.root.transactionSync(() => {
    const key = secretKey(token);
    const record = store.oauthSecrets.get(key);
    if (record === undefined || (record.kind !== 'access' && record.kind !== 'refresh') || record.clientId !== clientId) return;
    if (record.kind === 'refresh') return revokeFamily(store, record.familyId);
    store.oauthSecrets.removeSync(key);
    bumpGeneration(store);
  });
}

/** A client the user authorized and has not revoked: when first and last, and how many live grants. */
export interface AuthorizedClient {
  readonly clientId: string;
  readonly firstGrantedAt: number;
  readonly lastGrantedAt: number;
  readonly grants: number;
}

/** The clients holding an unrevoked grant family of the user, most recently granted first. */
export function authorizedClientsOf(store: Store, userId: number): AuthorizedClient[] {
  const byClient = new Map<string, AuthorizedClient>();
  for (const { value } of store.oauthFamilies.getRange()) {
    if (value.userId !== userId || value.revoked) continue;
    const seen = byClient.get(value.clientId);
    byClient.set(value.clientId, {
      clientId: value.clientId,
      firstGrantedAt: Math.min(seen?.firstGrantedAt ?? Infinity, value.createdAt),
      lastGrantedAt: Math.max(seen?.lastGrantedAt ?? 0, value.createdAt),
      grants: (seen?.grants ?? 0) + 1,
    });
  }
  return [...byClient.values()].sort((a, b) => b.lastGrantedAt - a.lastGrantedAt);
}

/** Revokes every grant family of the user for the client and forgets the consent (an "authorized application" revoked). */
export function revokeGrantsOf(store: Store, userId: number, clientId: string): void {
  store.root.transactionSync(() => {
    for (const { value } of store.oauthFamilies.getRange()) {
      if (value.userId === userId && value.clientId === clientId && !value.revoked) store.oauthFamilies.putSync(value.id, { ...value, revoked: true });
    }
    store.oauthConsents.removeSync(`${userId}:${clientId}`);
    bumpGeneration(store);
  });
}

/** Forgets every grant family and consent of a user; call inside the transaction that deletes the user. */
export function deleteGrantsOf(store: Store, userId: number): void {
  for (const { key, value } of store.oauthFamilies.getRange()) if (value.userId === userId) store.oauthFamilies.removeSync(key);
  for (const { key } of store.oauthConsents.getRange()) if (key.startsWith(`${userId}:`)) store.oauthConsents.removeSync(key);
}

/** The key that seals a successor is derived from the old token, which the store never holds. */
function sealKey(token: string): Buffer {
  return createHash('sha256').update(`quarry-refresh-successor\0${token}`).digest();
}

function seal(token: string, tokens: IssuedTokens): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(token), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(token: string, sealed: string): IssuedTokens | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(token), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as IssuedTokens;
  } catch {
    return null;
  }
}
