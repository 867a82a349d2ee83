/**
 * Purging expired OAuth codes, device codes (with their user codes), access and refresh tokens,
 * spent grant families and sign-in sessions from a real store: each pass reads a bounded number of
 * entries and goes on where the last one stopped; after a full sweep the expired entries are gone
 * from the databases while every live one is still there and still works. Then the same through
 * the identity provider, whose storing requests sweep on their own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIdentityProvider } from '../../src/auth/oauth/service.js';
import { purgeExpired } from '../../src/store/expiry.js';
import { createOAuthClient } from '../../src/store/oauth-clients.js';
import { createAuthorizationCode, createDeviceAuthorization } from '../../src/store/oauth-codes.js';
import { findOAuthToken, grantTokens, secretKey } from '../../src/store/oauth-grants.js';
import type { Store } from '../../src/store/records.js';
import { createSession, findSession } from '../../src/store/sessions.js';
import { createUser, getUser } from '../../src/store/users.js';
import { useTempStore } from './temp-store.js';

const HOUR = 3_600_000;
const lifetimes = { accessMs: HOUR, refreshMs: 2 * HOUR };

/** A population of entries: `copies` of each kind, issued so that they expired an hour ago or expire in an hour. */
function populate(store: Store, userId: number, clientId: string, copies: number, expired: boolean) {
  const issuedAt = expired ? Date.now() - 3 * HOUR : Date.now();
  const made = { codes: [] as string[], devices: [] as { deviceCode: string; userCode: string }[], tokens: [] as { access: string; refresh: string; family: string }[], sessions: [] as string[] };
  for (let i = 0; i < copies; i++) {
    made.codes.push(createAuthorizationCode(store, { clientId, userId, redirectUri: 'http://127.0.0.1/cb', codeChallenge: 'x'.repeat(43), scopes: ['mcp'], resource: '/' }, HOUR, issuedAt));
    made.devices.push(createDeviceAuthorization(store, { clientId, scopes: ['mcp'], resource: '/' }, HOUR, 5, issuedAt));
    const tokens = grantTokens(store, { clientId, userId, scopes: ['mcp'], resource: '/' }, lifetimes, issuedAt);
    made.tokens.push({ access: tokens.accessToken, refresh: tokens.refreshToken!, family: tokens.familyId });
    made.sessions.push(createSession(store, userId, HOUR, issuedAt));
  }
  return made;
}

type Made = ReturnType<typeof populate>;

/** Whether each entry is still stored, read straight from the databases (sessions too are keyed by their SHA-256). */
function stored(store: Store, made: Made): boolean[] {
  const secret = (s: string) => store.oauthSecrets.get(secretKey(s)) !== undefined;
  return [
    ...made.codes.map(secret),
    ...made.devices.flatMap((d) => [secret(d.deviceCode), store.oauthSecrets.get(`user-code:${d.userCode}`) !== undefined]),
    ...made.tokens.flatMap((t) => [secret(t.access), secret(t.refresh), store.oauthFamilies.get(t.family) !== undefined]),
    ...made.sessions.map((s) => store.sessions.get(secretKey(s)) !== undefined),
  ];
}

describe('purging expired entries', () => {
  let store: Store;
  let userId = 0;
  let clientId = '';
  useTempStore((opened) => {
    store = opened;
    userId = createUser(store, { username: 'pat' }).id;
    clientId = createOAuthClient(store, { name: 'c', redirectUris: [], scopes: ['mcp'], grantTypes: ['authorization_code'], tokenEndpointAuthMethod: 'none', dynamic: false, serviceAccountId: null, metadata: {}, confidential: false }).client.id;
  });

  it('removes the expired entries in bounded passes and keeps every live one', () => {
    const expired = populate(store, userId, clientId, 20, true);
    const live = populate(store, userId, clientId, 5, false);
    assert.ok(stored(store, expired).every(Boolean), 'the expired entries are there before the purge');
    const limit = 7;
    let passes = 0;
    // 20 each of codes, device codes, user codes (removed with their device code), access and refresh tokens.
    while (stored(store, expired).some(Boolean)) {
      const pass = purgeExpired(store, limit);
      assert.ok(pass.scanned <= 3 * limit, `a pass reads at most ${limit} entries per database (read ${pass.scanned})`);
      passes++;
      assert.ok(passes < 100, 'the sweep finishes');
    }
    assert.ok(passes >= 10, `100 expired secrets take many passes of ${limit}, not one (took ${passes})`);
    assert.ok(stored(store, live).every(Boolean), 'live entries stay');
    for (const t of live.tokens) assert.ok(findOAuthToken(store, t.access, 'access') && findOAuthToken(store, t.refresh, 'refresh'), 'live tokens still work');
    for (const s of live.sessions) assert.ok(findSession(store, s), 'live sessions still work');
    // Another full round removes nothing more.
    let removed = 0;
    for (let i = 0; i < 30; i++) removed += purgeExpired(store, limit).removed;
    assert.equal(removed, 0);
    assert.ok(stored(store, live).every(Boolean));
  });

  it('sweeps on its own as the identity provider stores codes', () => {
    const expired = populate(store, userId, clientId, 40, true);
    const live = populate(store, userId, clientId, 3, false);
    const idp = createIdentityProvider(store);
    const client = store.oauthClients.get(clientId)!;
    const request = { client, redirectUri: 'http://127.0.0.1/cb', state: null, scopes: ['mcp'], resource: '/', codeChallenge: 'y'.repeat(43), promptConsent: false };
    const user = getUser(store, userId)!;
    // 40 of each kind: 200 expired secrets and 40 sessions; a pass after each stored code reads 64 of each database.
    for (let i = 0; i < 6; i++) idp.decide(user, request, 'http://127.0.0.1:7080', true);
    assert.deepEqual(stored(store, expired).filter(Boolean).length, 0, 'no expired entry is left');
    assert.ok(stored(store, live).every(Boolean), 'live entries stay');
  });
});
