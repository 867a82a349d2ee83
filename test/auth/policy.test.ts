/**
 * The access policy against a real store and real tokens: private mode and its open paths, the
 * Sourcegraph API token rule (reference §4.2: wrong scope is an invalid token), and /metrics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuthenticator, INVALID_TOKEN, type Authenticator } from '../../src/auth/authenticate.js';
import { createMetricsAccess, forSourcegraphApi, METRICS_NEED_ADMIN, METRICS_NEED_CREDENTIALS, PRIVATE_MODE, privateModeRefusal } from '../../src/auth/policy.js';
import { createAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

const PRIVATE = { public: false };
const PUBLIC = { public: true };
const NO_QUERY = new URLSearchParams();

describe('private mode at the edge', () => {
  const refusal = (path: string, headers: Record<string, string> = {}, query = '') => privateModeRefusal({ path, headers, query: new URLSearchParams(query) }, () => PRIVATE);

  it('refuses requests without credentials everywhere but the open paths and the self-guarded MCP door', () => {
    for (const path of ['/.api/graphql', '/.api/search/stream', '/metrics', '/anything/else', '/']) {
      assert.deepEqual(refusal(path), { status: 401, message: PRIVATE_MODE }, path);
    }
    for (const path of ['/healthz', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/.api/mcp', '/debug/console', '/debug/console/assets/graphiql.js', '/.api/mcp', '/.api/mcp/all', '/.api/mcp/whatever']) {
      assert.equal(refusal(path), null, path);
    }
  });

  it('lets requests with any credentials through to their door, and everything through on a public instance', () => {
    assert.equal(refusal('/.api/graphql', { authorization: 'token whatever' }), null);
    assert.equal(refusal('/.api/graphql', { authorization: 'Nonsense' }), null);
    assert.equal(refusal('/.api/graphql', {}, 'token=abc'), null);
    assert.equal(privateModeRefusal({ path: '/.api/graphql', headers: {}, query: NO_QUERY }, () => PUBLIC), null);
  });
});

describe('Sourcegraph API doors and /metrics', () => {
  let authenticate: Authenticator;
  let user = '';
  let mcpOnly = '';
  let admin = '';
  let adminMcpOnly = '';
  useTempStore((store) => {
    authenticate = createAuthenticator(store);
    const dev = createUser(store, { username: 'dev' });
    const root = createUser(store, { username: 'root', siteAdmin: true });
    user = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' }).token;
    mcpOnly = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['mcp'], note: '' }).token;
    admin = createAccessToken(store, { userId: root.id, creatorId: root.id, scopes: ['user:all'], note: '' }).token;
    adminMcpOnly = createAccessToken(store, { userId: root.id, creatorId: root.id, scopes: ['mcp'], note: '' }).token;
  });

  it('refuses anonymous callers on a private instance and wrong-scope tokens always, with 401 texts', () => {
    let settings = PRIVATE;
    const api = forSourcegraphApi(authenticate, () => settings);
    assert.deepEqual(api({}, NO_QUERY), { ok: false, failure: { status: 401, message: PRIVATE_MODE } });
    assert.deepEqual(api({ authorization: `token ${mcpOnly}` }, NO_QUERY), { ok: false, failure: { status: 401, message: INVALID_TOKEN } });
    assert.deepEqual(api({ authorization: `token sgp_local_${'1'.repeat(40)}` }, NO_QUERY), { ok: false, failure: { status: 401, message: INVALID_TOKEN } });
    const ok = api({ authorization: `token ${user}` }, NO_QUERY);
    assert.ok(ok.ok && ok.principal.username === 'dev');
    settings = PUBLIC;
    const anonymous = api({}, NO_QUERY);
    assert.ok(anonymous.ok && anonymous.principal.userId === null, 'a public instance serves anonymous callers');
    assert.deepEqual(api({ authorization: `token ${mcpOnly}` }, NO_QUERY), { ok: false, failure: { status: 401, message: INVALID_TOKEN } });
  });

  it('lets only site admins and the scrape token read /metrics', () => {
    const scrape = createMetricsAccess(authenticate, 'scrape-secret-0123456789');
    const as = (authorization: string | null, query = '') => scrape(authorization === null ? {} : { authorization }, new URLSearchParams(query));
    assert.deepEqual(as(null), { status: 401, message: METRICS_NEED_CREDENTIALS });
    assert.deepEqual(as(`token ${user}`), { status: 403, message: METRICS_NEED_ADMIN });
    assert.deepEqual(as(`token ${adminMcpOnly}`), { status: 401, message: INVALID_TOKEN });
    assert.deepEqual(as('Bearer scrape-secret-012345678'), { status: 401, message: INVALID_TOKEN });
    assert.equal(as(`token ${admin}`), null);
    assert.equal(as('Bearer scrape-secret-0123456789'), null);
    assert.equal(as('token scrape-secret-0123456789'), null);
    assert.deepEqual(createMetricsAccess(authenticate, null)({ authorization: 'Bearer scrape-secret-0123456789' }, NO_QUERY), { status: 401, message: INVALID_TOKEN }, 'no scrape token configured');
  });
});
