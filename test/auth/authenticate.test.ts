/**
 * Authentication against a real store and real tokens: every header form and `?token=`, where the
 * credentials came from, the exact refusal texts of reference §4.2, sudo, role changes on the next
 * request, the metrics scrape token, and last use.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { authorize, INVALID_TOKEN } from '../../src/auth/authorize.js';
import { ANONYMOUS, type Authentication, type CredentialSource, type Principal } from '../../src/auth/principal.js';
import type { Store, UserRecord } from '../../src/store/records.js';
import { restrictRepo } from '../../src/store/repo-permissions.js';
import { addRepo, reserveRepoId } from '../../src/store/repos.js';
import { assignRole, createRole, removeRole, setRolePermissions } from '../../src/store/roles.js';
import { createAccessToken, getAccessToken, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser, setSiteAdmin } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

function expectPrincipal(result: Authentication): Principal {
  assert.ok(result.ok, result.ok ? '' : `${result.failure.status} ${result.failure.message}`);
  return result.principal;
}

function expectFailure(result: Authentication, status: number, message: string, via: CredentialSource = 'header'): void {
  assert.deepEqual(result, { ok: false, failure: { status, message }, via, scrapeToken: false });
}

/** The principal's data, without its repository capability (a function, compared by what it answers). */
function identityOf(principal: Principal): Omit<Principal, 'canRead'> {
  const { canRead: _canRead, ...identity } = principal;
  return identity;
}

const PUBLIC_SITE = () => ({ public: true });
const PRIVATE_SITE = () => ({ public: false });

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
    addRepo(store, { id: reserveRepoId(store), name: 'org/secret', source: '/x', mirrorPath: 'm', addedAt: '', lastFetchedAt: null, defaultBranch: 'main', fork: false, archived: false });
    restrictRepo(store, 'org/secret', { users: [dev.id], roles: [] });
  });

  const auth = (header?: string, query?: string) =>
    authenticate({ headers: header === undefined ? {} : { authorization: header }, ...(query === undefined ? {} : { query: new URLSearchParams(query) }) });

  it('is anonymous without credentials', () => {
    const anonymous = expectPrincipal(auth());
    assert.deepEqual(identityOf(anonymous), ANONYMOUS);
    assert.equal(auth().via, 'none');
    assert.equal(expectPrincipal(auth('  ')), anonymous);
    assert.equal(expectPrincipal(auth(undefined, 'token=')), anonymous);
    assert.equal(authorize(auth(), 'graphql', PUBLIC_SITE).ok, true, 'no token rule stops anonymous callers where the site is public');
  });

  it('gives each principal the repository access of who it is', () => {
    assert.equal(expectPrincipal(auth()).canRead('org/secret'), false);
    assert.equal(expectPrincipal(auth()).canRead('org/open'), true);
    assert.equal(expectPrincipal(auth(`token ${devToken}`)).canRead('org/secret'), true);
    assert.equal(expectPrincipal(auth(`token ${mcpToken}`)).canRead('org/secret'), true, 'access follows the user, not the token scope');
    assert.equal(expectPrincipal(auth(`token ${sudoToken}`)).canRead('org/secret'), true, 'site admins read everything');
    const other = createUser(store, { username: 'other' });
    const otherToken = createAccessToken(store, { userId: other.id, creatorId: other.id, scopes: ['user:all'], note: '' }).token;
    assert.equal(expectPrincipal(auth(`token ${otherToken}`)).canRead('org/secret'), false);
    assert.equal(expectPrincipal(auth(`token-sudo user="other",token="${sudoToken}"`)).canRead('org/secret'), false, 'sudo reads as the user it acts as');
  });

  it('accepts a token in every header form and as ?token=', () => {
    const secret = devToken.slice('sgp_local_'.length);
    const forms = [
      `token ${devToken}`, `Token ${secret}`, `Bearer ${devToken}`, `bearer sgp_${secret}`,
      `Basic ${Buffer.from(`${devToken}:`).toString('base64')}`, `token-sudo token="${devToken}"`,
    ];
    for (const header of forms) {
      const result = auth(header);
      assert.deepEqual(identityOf(expectPrincipal(result)), {
        userId: dev.id, username: 'dev', siteAdmin: false, serviceAccount: false, scopes: ['user:all'],
        roles: ['USER'], permissions: ['MCP#ACCESS'], tokenId: devTokenId, sudoBy: null, audience: null,
      }, header);
      assert.equal(result.via, 'header', header);
    }
    const byQuery = auth(undefined, `token=${devToken}`);
    assert.equal(expectPrincipal(byQuery).userId, dev.id);
    assert.equal(byQuery.via, 'query');
    const both = auth(`token ${sudoToken}`, `token=${devToken}`);
    assert.equal(expectPrincipal(both).userId, admin.id, 'the header wins');
    assert.equal(both.via, 'header');
  });

  it('refuses malformed headers and unknown schemes with 401 Invalid Authorization header.', () => {
    for (const header of ['token', `token ${devToken} extra`, 'Digest abc', `${devToken}`, 'token-sudo token="x" token="y"', 'token-sudo token="x",,', 'Basic', 'Bearer a,b']) {
      expectFailure(auth(header), 401, 'Invalid Authorization header.');
    }
  });

  it('refuses unknown, malformed and revoked tokens with 401 Invalid access token.', () => {
    expectFailure(auth(`token sgp_local_${'0'.repeat(40)}`), 401, 'Invalid access token.');
    expectFailure(auth('token not-a-token'), 401, 'Invalid access token.');
    expectFailure(auth(undefined, 'token=abc'), 401, 'Invalid access token.', 'query');
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
    assert.equal(expectPrincipal(auth(`token ${devToken}`)).permissions.includes('MCP#ACCESS'), false);
    assignRole(store, dev.id, 'agents');
    const principal = expectPrincipal(auth(`token ${devToken}`));
    assert.deepEqual(principal.roles, ['USER', 'agents']);
    assert.equal(principal.permissions.includes('MCP#ACCESS'), true);
    removeRole(store, dev.id, 'agents');
    setRolePermissions(store, 'USER', ['MCP#ACCESS']);
    assert.deepEqual(expectPrincipal(auth(`token ${devToken}`)).roles, ['USER']);
    assert.equal(expectPrincipal(auth(`token ${sudoToken}`)).siteAdmin, true);
  });

  it('lets an mcp-only token authenticate but not use GraphQL', () => {
    const result = auth(`token ${mcpToken}`);
    assert.deepEqual(expectPrincipal(result).scopes, ['mcp']);
    const refused = authorize(result, 'graphql', PRIVATE_SITE);
    assert.ok(!refused.ok && refused.refusal.status === 401 && refused.refusal.message === INVALID_TOKEN);
    assert.equal(authorize(auth(`token ${devToken}`), 'graphql', PRIVATE_SITE).ok, true);
  });

  it('marks the metrics scrape token, compared whole, wherever it is presented', () => {
    const scrape = 'scrape-secret-0123456789';
    const withScrape = createAuthenticator(store, { scrapeToken: scrape });
    const as = (headers: Record<string, string>, query = '') => withScrape({ headers, query: new URLSearchParams(query) });
    for (const [result, via] of [[as({ authorization: `Bearer ${scrape}` }), 'header'], [as({ authorization: `token ${scrape}` }), 'header'], [as({}, `token=${scrape}`), 'query']] as const) {
      assert.deepEqual(result, { ok: false, failure: { status: 401, message: INVALID_TOKEN }, via, scrapeToken: true }, 'the scrape token is no access token');
    }
    for (const near of [`${scrape}x`, scrape.slice(0, -1), scrape.toUpperCase()]) {
      assert.equal(as({ authorization: `Bearer ${near}` }).scrapeToken, false, near);
    }
    const dev = as({ authorization: `token ${devToken}` });
    assert.ok(dev.ok && !dev.scrapeToken);
    assert.equal(auth(`Bearer ${scrape}`).scrapeToken, false, 'without a configured scrape token nothing is one');
  });

  it('records the last use of the token', async () => {
    auth(`token ${devToken}`);
    await store.root.flushed;
    assert.match(getAccessToken(store, devTokenId)?.lastUsedAt ?? '', /^\d{4}-\d\d-\d\dT/);
  });
});
