import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import type { Store, UserRecord } from '../../src/store/records.js';
import {
  createAccessToken, findAccessToken, getAccessToken, listAccessTokens, revokeAccessToken, touchAccessToken,
} from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from './temp-store.js';

describe('access tokens', () => {
  let store: Store;
  let admin: UserRecord;
  let user: UserRecord;
  useTempStore((opened) => {
    store = opened;
    admin = createUser(store, { username: 'root', siteAdmin: true });
    user = createUser(store, { username: 'dev' });
  });

  it('creates sgp_local_ tokens whose secret is stored only as a hash', async () => {
    const { id, token } = createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['mcp', 'user:all', 'mcp'], note: 'laptop' });
    assert.match(token, /^sgp_local_[0-9a-f]{40}$/);
    const secret = token.slice('sgp_local_'.length);
    const record = getAccessToken(store, id);
    assert.deepEqual(record && { ...record, createdAt: '' }, {
      id, userId: user.id, scopes: ['mcp', 'user:all'], note: 'laptop', creatorId: user.id, createdAt: '', lastUsedAt: null, revoked: false,
    });
    assert.ok(!JSON.stringify(store.tokens.get(id)).includes(secret));
    await store.root.flushed;
    for (const file of readdirSync(store.path)) assert.ok(!readFileSync(join(store.path, file)).includes(secret), file);
  });

  it('finds a token in every accepted input form, and nothing else', () => {
    const { id, token } = createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: '' });
    const secret = token.slice('sgp_local_'.length);
    for (const form of [token, secret, secret.toUpperCase(), `sgp_${secret}`, `sgph_${secret}`, `sgp_abc123_${secret}`]) {
      assert.equal(findAccessToken(store, form)?.id, id, form);
    }
    for (const form of [`${secret}0`, secret.slice(1), `sgx_${secret}`, `sgp_a-b_${secret}`, '', `sgp_local_${'0'.repeat(40)}`]) {
      assert.equal(findAccessToken(store, form), undefined, form);
    }
  });

  it('refuses unknown scopes, no scopes, unknown users and sudo tokens not made by and for a site admin', () => {
    const make = (scopes: string[], userId = user.id, creatorId = userId) => () => createAccessToken(store, { userId, creatorId, scopes, note: '' });
    assert.throws(make(['user:all', 'repo']), (e) => isQuarryError(e, 'INVALID_ARGUMENT') && /unknown scope "repo"/.test(e.message));
    assert.throws(make([]), (e) => isQuarryError(e, 'INVALID_ARGUMENT'));
    assert.throws(make(['user:all'], 999), (e) => isQuarryError(e, 'USER_NOT_FOUND'));
    assert.throws(make(['site-admin:sudo']), (e) => isQuarryError(e, 'FORBIDDEN'));
    assert.throws(make(['site-admin:sudo'], admin.id, user.id), (e) => isQuarryError(e, 'FORBIDDEN'));
    assert.throws(make(['site-admin:sudo'], user.id, admin.id), (e) => isQuarryError(e, 'FORBIDDEN'));
    assert.ok(make(['site-admin:sudo'], admin.id)());
  });

  it('revokes tokens: they stop working and are listed as revoked', () => {
    const { id, token } = createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: 'old' });
    assert.equal(revokeAccessToken(store, id).revoked, true);
    assert.equal(findAccessToken(store, token), undefined);
    assert.equal(listAccessTokens(store, user.id).find((t) => t.id === id)?.revoked, true);
    assert.ok(listAccessTokens(store).some((t) => t.userId === admin.id));
    assert.ok(listAccessTokens(store, user.id).every((t) => t.userId === user.id));
    assert.throws(() => revokeAccessToken(store, 9999), (e) => isQuarryError(e, 'TOKEN_NOT_FOUND'));
  });

  it('records the last use at most once a minute per token', async () => {
    const { id } = createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: '' });
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    touchAccessToken(store, id, t0);
    await store.root.flushed;
    assert.equal(getAccessToken(store, id)?.lastUsedAt, '2030-01-01T00:00:00.000Z');
    touchAccessToken(store, id, t0 + 59_000);
    await store.root.flushed;
    assert.equal(getAccessToken(store, id)?.lastUsedAt, '2030-01-01T00:00:00.000Z');
    touchAccessToken(store, id, t0 + 61_000);
    await store.root.flushed;
    assert.equal(getAccessToken(store, id)?.lastUsedAt, '2030-01-01T00:01:01.000Z');
  });
});
