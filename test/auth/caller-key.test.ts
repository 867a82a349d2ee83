/**
 * Caller keys for the per-caller limits, against a real store and real tokens: a token is known by
 * its id whatever its spelling, credentials that do not authenticate (made up, or revoked since) fall
 * to the client's address, the key reads the request's one authentication, and IPv6 addresses group by /64.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuthenticator, type Authenticator } from '../../src/auth/authenticate.js';
import { addressKey, createCallerKeys, type CallerRequest } from '../../src/auth/caller-key.js';
import type { Store } from '../../src/store/records.js';
import { createAccessToken, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

describe('caller keys', () => {
  let store: Store;
  let authenticate: Authenticator;
  let token = '';
  let tokenId = 0;
  let adminToken = '';
  useTempStore((opened) => {
    store = opened;
    authenticate = createAuthenticator(store);
    const dev = createUser(store, { username: 'dev' });
    const admin = createUser(store, { username: 'root', siteAdmin: true });
    ({ token, id: tokenId } = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' }));
    adminToken = createAccessToken(store, { userId: admin.id, creatorId: admin.id, scopes: ['user:all', 'site-admin:sudo'], note: '' }).token;
  });

  /** A request as the edge holds it: its authentication resolved on first read, by `using`. */
  const request = (headers: Record<string, string>, query = '', remoteAddress = '192.0.2.7', using: Authenticator = authenticate): CallerRequest => {
    let resolved: ReturnType<Authenticator> | undefined;
    const credentials = { headers, query: new URLSearchParams(query), remoteAddress };
    return {
      remoteAddress,
      get auth() {
        return (resolved ??= using(credentials));
      },
    };
  };

  it('keys a valid token by its id, the same for every spelling and for ?token=', () => {
    const keys = createCallerKeys();
    const secret = token.slice('sgp_local_'.length);
    const spellings = [request({ authorization: `token ${token}` }), request({ authorization: `Bearer ${secret.toUpperCase()}` }), request({ authorization: `token sgp_other_${secret}` }), request({}, `token=${token}`)];
    for (const r of spellings) assert.deepEqual(keys(r), { key: `token:${tokenId}`, anonymous: false });
  });

  it('keys anonymous callers, malformed headers and made-up tokens by the address, so they share one budget', () => {
    const keys = createCallerKeys();
    const address = { key: 'address:192.0.2.7', anonymous: true };
    assert.deepEqual(keys(request({})), address);
    assert.deepEqual(keys(request({ authorization: 'token' })), address);
    for (let i = 0; i < 20; i++) assert.deepEqual(keys(request({ authorization: `token sgp_local_${i.toString(16).padStart(40, '0')}` })), address);
    assert.deepEqual(keys(request({ authorization: `token-sudo user="nobody",token="${adminToken}"` })), address, 'a sudo to nobody does not authenticate');
  });

  it('reads the request\'s own authentication, which its door then reads without authenticating again', () => {
    let calls = 0;
    const counting: Authenticator = (credentials) => {
      calls++;
      return authenticate(credentials);
    };
    const first = request({ authorization: `token ${token}` }, '', '192.0.2.7', counting);
    assert.deepEqual(createCallerKeys()(first), { key: `token:${tokenId}`, anonymous: false });
    assert.ok(first.auth.ok && first.auth.principal.tokenId === tokenId);
    assert.equal(calls, 1);
  });

  it('keys a token revoked since by the address, as the made-up ones', () => {
    const keys = createCallerKeys();
    assert.deepEqual(keys(request({ authorization: `token ${token}` })), { key: `token:${tokenId}`, anonymous: false });
    revokeAccessToken(store, tokenId);
    assert.deepEqual(keys(request({ authorization: `token ${token}` })), { key: 'address:192.0.2.7', anonymous: true });
  });
});

describe('address keys', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones in uWS hex form, and groups IPv6 by /64', () => {
    assert.equal(addressKey('127.0.0.1'), '127.0.0.1');
    assert.equal(addressKey('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(addressKey('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
    assert.equal(addressKey('0000:0000:0000:0000:0000:0000:0000:0001'), '0:0:0:0::/64');
    assert.equal(addressKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('not an address'), 'not an address');
  });
});
