import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canUseGraphQL, createAuthenticator, hasPermission, isSiteAdmin, type AuthResult } from '../../src/auth/authenticate.js';
import { ANONYMOUS, type Principal } from '../../src/auth/principal.js';
import type { Store, UserRecord } from '../../src/store/records.js';
import { assignRole, createRole, removeRole, setRolePermissions } from '../../src/store/roles.js';
import { createAccessToken, getAccessToken, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser, setSiteAdmin } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

function expectPrincipal(result: AuthResult): Principal {
  assert.ok(result.ok, result.ok ? '' : `${result.failure.status} ${result.failure.message}`);
  return result.principal;
}

function expectFailure(result: AuthResult, status: number, message: string): void {
  assert.deepEqual(result, { ok: false, failure: { status, message } });
}

describe('authenticate', () => {
  let store: Store;
  let authenticate: ReturnType<typeof createAuthenticator>;
  let admin: UserRecord;
  let dev: UserRecord;
  let devToken = '';
  let mcpToken = '';
  let sudoToken = '';
  let devTokenId = 0;
  useTempStore((opened) => {
    store = opened;
    authenticate = createAuthenticator(store);
    admin = createUser(store, { username: 'root', siteAdmin: true });
    dev = createUser(store, { username: 'dev' });
    ({ token: devToken, id: devTokenId } = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' }));
    mcpToken = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['mcp'], note: '' }).token;
    sudoToken = createAccessToken(store, { userId: admin.id, creatorId: admin.id, scopes: ['site-admin:sudo', 'user:all'], note: '' }).token;
  });

  const auth = (header?: string, query?: string) =>
    authenticate(header === undefined ? {} : { authorization: header }, query === undefined ? undefined : new URLSearchParams(query));

  it('is anonymous without credentials', () => {
    assert.equal(expectPrincipal(auth()), ANONYMOUS);
    assert.equal(expectPrincipal(auth('  ')), ANONYMOUS);
    assert.equal(expectPrincipal(auth(undefined, 'token=')), ANONYMOUS);
    assert.equal(canUseGraphQL(ANONYMOUS), true);
  });

  it('accepts a token in every header form and as ?token=', () => {
    const secret = devToken.slice('sgp_local_'.length);
    const forms = [
      `token ${devToken}`, `Token ${secret}`, `Bearer ${devToken}`, `bearer sgp_${secret}`,
      `Basic ${Buffer.from(`${devToken}:`).toString('base64')}`, `token-sudo token="${devToken}"`,
    ];
    for (const header of forms) {
      const principal = expectPrincipal(auth(header));
      assert.deepEqual(principal, {
        userId: dev.id, username: 'dev', siteAdmin: false, serviceAccount: false, scopes: ['user:all'],
        roles: ['USER'], permissions: ['MCP#ACCESS'], tokenId: devTokenId, sudoBy: null,
      }, header);
    }
    assert.equal(expectPrincipal(auth(undefined, `token=${devToken}`)).userId, dev.id);
    assert.equal(expectPrincipal(auth(`token ${sudoToken}`, `token=${devToken}`)).userId, admin.id, 'the header wins');
  });

  it('refuses malformed headers and unknown schemes with 401 Invalid Authorization header.', () => {
    for (const header of ['token', `token ${devToken} extra`, 'Digest abc', `${devToken}`, 'token-sudo token="x" token="y"', 'token-sudo token="x",,', 'Basic', 'Bearer a,b']) {
      expectFailure(auth(header), 401, 'Invalid Authorization header.');
    }
  });

  it('refuses unknown, malformed and revoked tokens with 401 Invalid access token.', () => {
    expectFailure(auth(`token sgp_local_${'0'.repeat(40)}`), 401, 'Invalid access token.');
    expectFailure(auth('token not-a-token'), 401, 'Invalid access token.');
    expectFailure(auth(undefined, 'token=abc'), 401, 'Invalid access token.');
    expectFailure(auth(`Basic ${Buffer.from('nope:').toString('base64')}`), 401, 'Invalid access token.');
    const doomed = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    assert.ok(auth(`token ${doomed.token}`).ok);
    revokeAccessToken(store, doomed.id);
    expectFailure(auth(`token ${doomed.token}`), 401, 'Invalid access token.');
  });

  it('sudo acts as the named user for a site admin token with site-admin:sudo', () => {
    const principal = expectPrincipal(auth(`token-sudo user="DEV",token="${sudoToken}"`));
    assert.equal(principal.username, 'dev');
    assert.equal(principal.siteAdmin, false);
    assert.equal(principal.sudoBy, 'root');
    assert.deepEqual(principal.scopes, ['site-admin:sudo', 'user:all']);
    assert.equal(expectPrincipal(auth(`TOKEN-SUDO Token=${sudoToken} , USER=dev`)).username, 'dev');
  });

  it('refuses sudo with the exact texts of reference §4.2', () => {
    expectFailure(auth(`token-sudo user="dev",token="${devToken}"`), 401, 'Invalid access token.');
    expectFailure(auth(`token-sudo user="ghost",token="${sudoToken}"`), 403, 'Unable to sudo to nonexistent user.');
    expectFailure(auth('token-sudo user="dev"'), 401, 'no token value in the HTTP Authorization request header');
    expectFailure(auth(`token-sudo ${sudoToken}`), 401, 'HTTP Authorization request header value must be of the following form: token="TOKEN",user="USERNAME"');
    const other = createUser(store, { username: 'second-admin', siteAdmin: true });
    setSiteAdmin(store, admin.id, false);
    try {
      expectFailure(auth(`token-sudo user="dev",token="${sudoToken}"`), 403, 'The subject user of a sudo access token must be a site admin.');
    } finally {
      setSiteAdmin(store, admin.id, true);
      setSiteAdmin(store, other.id, false);
    }
  });

  it('applies role changes on the next request', () => {
    createRole(store, 'agents', ['MCP#ACCESS']);
    setRolePermissions(store, 'USER', []);
    assert.equal(hasPermission(expectPrincipal(auth(`token ${devToken}`)), 'MCP#ACCESS'), false);
    assignRole(store, dev.id, 'agents');
    const principal = expectPrincipal(auth(`token ${devToken}`));
    assert.deepEqual(principal.roles, ['USER', 'agents']);
    assert.equal(hasPermission(principal, 'MCP#ACCESS'), true);
    removeRole(store, dev.id, 'agents');
    setRolePermissions(store, 'USER', ['MCP#ACCESS']);
    assert.deepEqual(expectPrincipal(auth(`token ${devToken}`)).roles, ['USER']);
    assert.equal(isSiteAdmin(expectPrincipal(auth(`token ${sudoToken}`))), true);
  });

  it('lets an mcp-only token authenticate but not use GraphQL', () => {
    const principal = expectPrincipal(auth(`token ${mcpToken}`));
    assert.deepEqual(principal.scopes, ['mcp']);
    assert.equal(canUseGraphQL(principal), false);
    assert.equal(canUseGraphQL(expectPrincipal(auth(`token ${devToken}`))), true);
  });

  it('records the last use of the token', async () => {
    auth(`token ${devToken}`);
    await store.root.flushed;
    assert.match(getAccessToken(store, devTokenId)?.lastUsedAt ?? '', /^\d{4}-\d\d-\d\dT/);
  });
});
