/**
 * The short-lived steps before tokens: authorization codes (single use; a second exchange revokes
 * what the first one issued), device authorizations (RFC 8628) with their user codes, and the
 * consent a user remembered per client. Codes are stored only as SHA-256.
 */

import { randomBytes, randomInt } from 'node:crypto';
import { createFamily, issueTokens, revokeFamily, secretKey, type GrantScope, type IssuedTokens, type Lifetimes } from './oauth-grants.js';
import type { OAuthCodeRecord, OAuthDeviceRecord, Store } from './records.js';

export type NewCode = Omit<OAuthCodeRecord, 'kind' | 'familyId' | 'expiresAt'>;

export function createAuthorizationCode(store: Store, input: NewCode, lifetimeMs: number, now = Date.now()): string {
  const code = `sgo_ac_${randomBytes(32).toString('base64url')}`;
  store.oauthSecrets.putSync(secretKey(code), { ...input, kind: 'code', familyId: null, expiresAt: now + lifetimeMs });
  return code;
}

export type CodeExchange =
  | { readonly ok: true; readonly tokens: IssuedTokens }
  | { readonly ok: false; readonly reason: 'unknown' | 'reused' | 'refused'; readonly description?: string };

/**
 * Exchanges a code once. `check` sees the code (client, redirect URI, PKCE) inside the
 * transaction; the first presentation consumes the code whatever `check` says, so a stolen code
 * with a wrong verifier is burnt, and presenting a used code revokes the tokens it gave.
 */
export function exchangeAuthorizationCode(store: Store, code: string, check: (record: OAuthCodeRecord) => string | null, lifetimes: Lifetimes, now = Date.now()): CodeExchange {
  return store.root.transactionSync((): CodeExchange => {
    const key = secretKey(code);
    const record = code.length > 200 ? undefined : store.oauthSecrets.get(key);
    if (record === undefined || record.kind !== 'code' || record.expiresAt <= now) return { ok: false, reason: 'unknown' };
    if (record.familyId !== null) {
      revokeFamily(store, record.familyId);
      return { ok: false, reason: 'reused' };
    }
    const family = createFamily(store, record.clientId, record.userId, now);
    store.oauthSecrets.putSync(key, { ...record, familyId: family.id });
    const refused = check(record);
    if (refused !== null) return { ok: false, reason: 'refused', description: refused };
    return { ok: true, tokens: issueTokens(store, record, family.id, lifetimes, now) };
  });
}

// RFC 8628 §6.1: consonants only (no vowels, so no words), 20^8 codes.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

function userCodeKey(userCode: string): string {
  return `user-code:${userCode}`;
}

/** `ABCD-EFGH` as typed in any case, with or without the dash or spaces; null when it cannot be one. */
export function normalizeUserCode(typed: string): string | null {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== 8 || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export function createDeviceAuthorization(store: Store, grant: Omit<GrantScope, 'userId'>, lifetimeMs: number, intervalSeconds: number, now = Date.now()): { deviceCode: string; userCode: string } {
  const deviceCode = `sgo_dc_${randomBytes(32).toString('base64url')}`;
  const expiresAt = now + lifetimeMs;
  return store.root.transactionSync(() => {
    let userCode: string;
    do {
      const letters = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
      userCode = `${letters.slice(0, 4)}-${letters.slice(4)}`;
    } while (store.oauthSecrets.get(userCodeKey(userCode)) !== undefined);
    const deviceKey = secretKey(deviceCode);
    const record: OAuthDeviceRecord = {
      ...grant, scopes: [...grant.scopes], kind: 'device', userCode, status: 'pending', userId: null, lastPolledAt: 0, intervalSeconds, expiresAt,
    };
    store.oauthSecrets.putSync(deviceKey, record);
    store.oauthSecrets.putSync(userCodeKey(userCode), { kind: 'user-code', deviceKey, expiresAt });
    return { deviceCode, userCode };
  });
}

/** The pending device authorization a user code names; undefined when unknown, expired or decided. */
export function findPendingDevice(store: Store, userCode: string, now = Date.now()): OAuthDeviceRecord | undefined {
  const pointer = store.oauthSecrets.get(userCodeKey(userCode));
  if (pointer === undefined || pointer.kind !== 'user-code' || pointer.expiresAt <= now) return undefined;
  const device = store.oauthSecrets.get(pointer.deviceKey);
  return device !== undefined && device.kind === 'device' && device.status === 'pending' ? device : undefined;
}

/** Approves (for the user) or denies a pending device authorization; false when it is no longer pending. */
export function decideDevice(store: Store, userCode: string, userId: number, approve: boolean, now = Date.now()): boolean {
  return store.root.transactionSync(() => {
    const pointer = store.oauthSecrets.get(userCodeKey(userCode));
    if (pointer === undefined || pointer.kind !== 'user-code') return false;
    const device = findPendingDevice(store, userCode, now);
    if (device === undefined) return false;
    store.oauthSecrets.putSync(pointer.deviceKey, { ...device, status: approve ? 'approved' : 'denied', userId });
    return true;
  });
}

/** RFC 8628 §3.5: how much longer the interval gets with each slow_down. */
export const SLOW_DOWN_SECONDS = 5;

export type DevicePoll =
  | { readonly ok: true; readonly tokens: IssuedTokens }
  | { readonly ok: false; readonly error: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' };

/** One poll of the token endpoint with a device code of `clientId` (RFC 8628 §3.5); tokens once, after approval. */
export function pollDevice(store: Store, deviceCode: string, clientId: string, lifetimes: Lifetimes, now = Date.now()): DevicePoll {
  return store.root.transactionSync((): DevicePoll => {
    const key = secretKey(deviceCode);
    const device = deviceCode.length > 200 ? undefined : store.oauthSecrets.get(key);
    if (device === undefined || device.kind !== 'device' || device.clientId !== clientId) return { ok: false, error: 'invalid_grant' };
    if (device.expiresAt <= now) return { ok: false, error: 'expired_token' };
    if (device.status === 'denied') return { ok: false, error: 'access_denied' };
    if (device.status === 'used') return { ok: false, error: 'invalid_grant' };
    if (device.status === 'pending') {
      const tooSoon = now - device.lastPolledAt < device.intervalSeconds * 1000;
      // §3.5: after slow_down the interval is 5 seconds longer, for that poll and every later one.
      const intervalSeconds = device.intervalSeconds + (tooSoon ? SLOW_DOWN_SECONDS : 0);
      store.oauthSecrets.putSync(key, { ...device, lastPolledAt: now, intervalSeconds });
      return { ok: false, error: tooSoon ? 'slow_down' : 'authorization_pending' };
    }
    store.oauthSecrets.putSync(key, { ...device, status: 'used' });
    const userId = device.userId!;
    const family = createFamily(store, device.clientId, userId, now);
    return { ok: true, tokens: issueTokens(store, { ...device, userId }, family.id, lifetimes, now) };
  });
}

/** Remembers that the user allowed the client these scopes on this resource (added to what was allowed before). */
export function rememberConsent(store: Store, userId: number, clientId: string, scopes: readonly string[], resource: string): void {
  const key = `${userId}:${clientId}`;
  const before = store.oauthConsents.get(key);
  store.oauthConsents.putSync(key, {
    scopes: [...new Set([...(before?.scopes ?? []), ...scopes])].sort(),
    resources: [...new Set([...(before?.resources ?? []), resource])].sort(),
    updatedAt: new Date().toISOString(),
  });
}

/** Whether the user already allowed the client every one of these scopes on this resource. */
export function consentCovers(store: Store, userId: number, clientId: string, scopes: readonly string[], resource: string): boolean {
  const consent = store.oauthConsents.get(`${userId}:${clientId}`);
  return consent !== undefined && consent.resources.includes(resource) && scopes.every((s) => consent.scopes.includes(s));
}
