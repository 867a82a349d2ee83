/**
 * The authorization table row by row: every door's answer to every kind of caller on a private and
 * on a public site (status, text, challenge, and the answer as sent), the edge's private-mode check
 * and its paths, the doors the routes name, token-sudo and OAuth audiences; then the same rules
 * through a real store and real tokens (reference §4.2: a wrong scope is an invalid token).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENDPOINT_DOORS } from '../../src/api/mcp/routes.js';
import { ENDPOINT_PATHS } from '../../src/api/mcp/registry.js';
import type { Endpoint } from '../../src/api/mcp/tool.js';
import { CONSOLE_ASSET_NAMES } from '../../src/api/pages/console-assets.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_PATH } from '../../src/api/pages/console-page.js';
import { STREAM_PATH } from '../../src/api/stream/route.js';
import { createAuthenticator, SUDO_USER_MISSING, type Authenticator } from '../../src/auth/authenticate.js';
import {
  authorize, authorizeSudo, DEEPSEARCH_NEEDS_TOKEN, doorOf, INVALID_TOKEN, MCP_NEEDS_TOKEN, MCP_SCOPE_MISSING, METRICS_NEED_ADMIN, METRICS_NEED_CREDENTIALS,
  PRIVATE_MODE, privateModeRefusal, SUDO_SUBJECT_NOT_ADMIN, WRONG_AUDIENCE, type Door, type Refusal, type SiteAccess,
} from '../../src/auth/authorize.js';
import { ANONYMOUS, type Authentication, type CredentialSource, type Identity, type Principal } from '../../src/auth/principal.js';
import { GRAPHQL_PATH } from '../../src/api/graphql/route.js';
import { createAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

const PRIVATE_SITE = (): SiteAccess => ({ public: false });
const PUBLIC_SITE = (): SiteAccess => ({ public: true });
const NOT_READ = (): SiteAccess => assert.fail('the site setting was read for a request with credentials');

const principal = (identity: Partial<Identity> = {}): Principal => ({
  ...ANONYMOUS, userId: 7, username: 'dev', roles: ['USER'], permissions: ['MCP#ACCESS'], tokenId: 3, scopes: ['user:all'], ...identity, canRead: () => true,
});
const ok = (who: Principal, via: CredentialSource = 'header'): Authentication => ({ ok: true, principal: who, via, scrapeToken: false });
const failed = (status: 401 | 403, message: string, scrapeToken = false): Authentication => ({ ok: false, failure: { status, message }, via: 'header', scrapeToken });

/** One of each kind of caller, as the edge's authentication hands them over. */
const CALLERS = {
  'no credentials': { ok: true, principal: { ...ANONYMOUS, canRead: () => false }, via: 'none', scrapeToken: false },
  'a malformed header': failed(401, 'Invalid Authorization header.'),
  'an unknown token': failed(401, INVALID_TOKEN),
  'a sudo to nobody': failed(403, SUDO_USER_MISSING),
  'user:all': ok(principal()),
  'user:all in ?token=': ok(principal(), 'query'),
  'mcp only': ok(principal({ scopes: ['mcp'] })),
  'a scope no door takes': ok(principal({ scopes: ['externalapi:read'] })),
  'sudo as a user': ok(principal({ scopes: ['site-admin:sudo', 'user:all'], sudoBy: 'root' })),
  'a user without MCP#ACCESS': ok(principal({ permissions: [] })),
  'a site admin': ok(principal({ siteAdmin: true, roles: ['USER', 'SITE_ADMINISTRATOR'] })),
  'a site admin, mcp only': ok(principal({ siteAdmin: true, roles: ['USER', 'SITE_ADMINISTRATOR'], scopes: ['mcp'] })),
  'the scrape token': failed(401, INVALID_TOKEN, true),
  'OAuth for /.api/mcp': ok(principal({ scopes: ['mcp'], audience: '/.api/mcp' })),
  'OAuth for /.api/mcp/all': ok(principal({ scopes: ['mcp'], audience: '/.api/mcp/all' })),
  'OAuth for the whole server': ok(principal({ audience: '/' })),
} satisfies Record<string, Authentication>;
type Caller = keyof typeof CALLERS;

/** Passes (serving the caller's principal, or none if it did not authenticate), or a refusal: status, text, challenge. */
type Outcome = 'pass' | readonly [401 | 403, string, Refusal['challenge']?];
type Row = Readonly<Record<Caller, Outcome | { readonly private: Outcome; readonly public: Outcome }>>;

const PRIVATE: Outcome = [401, PRIVATE_MODE];
const INVALID: Outcome = [401, INVALID_TOKEN];

const SOURCEGRAPH_API: Row = {
  'no credentials': { private: PRIVATE, public: 'pass' },
  'a malformed header': [401, 'Invalid Authorization header.'],
  'an unknown token': INVALID,
  'a sudo to nobody': [403, SUDO_USER_MISSING],
  'user:all': 'pass',
  'user:all in ?token=': 'pass',
  'mcp only': INVALID,
  'a scope no door takes': INVALID,
  'sudo as a user': 'pass',
  'a user without MCP#ACCESS': 'pass',
  'a site admin': 'pass',
  'a site admin, mcp only': INVALID,
  'the scrape token': INVALID,
  'OAuth for /.api/mcp': INVALID,
  'OAuth for /.api/mcp/all': INVALID,
  'OAuth for the whole server': 'pass',
};

const MCP: Row = {
  'no credentials': [401, MCP_NEEDS_TOKEN, 'invalid_token'],
  'a malformed header': [401, 'Invalid Authorization header.', 'invalid_token'],
  'an unknown token': [401, INVALID_TOKEN, 'invalid_token'],
  'a sudo to nobody': [401, SUDO_USER_MISSING, 'invalid_token'],
  'user:all': 'pass',
  'user:all in ?token=': [401, MCP_NEEDS_TOKEN, 'invalid_token'],
  'mcp only': 'pass',
  // MCP's step-up challenge (mcp-auth §3.2), where Sourcegraph's doors call the token invalid.
  'a scope no door takes': [403, MCP_SCOPE_MISSING, 'insufficient_scope'],
  'sudo as a user': 'pass',
  'a user without MCP#ACCESS': [403, 'forbidden'],
  'a site admin': 'pass',
  'a site admin, mcp only': 'pass',
  'the scrape token': [401, INVALID_TOKEN, 'invalid_token'],
  'OAuth for /.api/mcp': 'pass',
  'OAuth for /.api/mcp/all': [401, WRONG_AUDIENCE, 'invalid_token'],
  'OAuth for the whole server': 'pass',
};

const OPEN: Row = Object.fromEntries(Object.keys(CALLERS).map((caller) => [caller, 'pass'])) as Row;

const EXPECTED: Readonly<Record<Door, Row>> = {
  graphql: SOURCEGRAPH_API,
  stream: SOURCEGRAPH_API,
  deepsearch: { ...SOURCEGRAPH_API, 'no credentials': { private: PRIVATE, public: [401, DEEPSEARCH_NEEDS_TOKEN] } },
  mcp: MCP,
  'mcp-all': { ...MCP, 'OAuth for /.api/mcp/all': 'pass' },
  'mcp-deepsearch': MCP,
  metrics: {
    'no credentials': { private: PRIVATE, public: [401, METRICS_NEED_CREDENTIALS] },
    'a malformed header': [401, 'Invalid Authorization header.'],
    'an unknown token': INVALID,
    'a sudo to nobody': [403, SUDO_USER_MISSING],
    'user:all': [403, METRICS_NEED_ADMIN],
    'user:all in ?token=': [403, METRICS_NEED_ADMIN],
    'mcp only': INVALID,
    'a scope no door takes': INVALID,
    'sudo as a user': [403, METRICS_NEED_ADMIN],
    'a user without MCP#ACCESS': [403, METRICS_NEED_ADMIN],
    'a site admin': 'pass',
    'a site admin, mcp only': INVALID,
    'the scrape token': 'pass',
    'OAuth for /.api/mcp': INVALID,
    'OAuth for /.api/mcp/all': INVALID,
    'OAuth for the whole server': [403, METRICS_NEED_ADMIN],
  },
  health: OPEN,
  discovery: OPEN,
  console: OPEN,
  oauth: OPEN,
  pages: OPEN,
  cluster: OPEN,
  other: { ...OPEN, 'no credentials': { private: PRIVATE, public: 'pass' } },
};

const MCP_DOORS: readonly Door[] = ['mcp', 'mcp-all', 'mcp-deepsearch'];

/** The answer as the door sends it: Sourcegraph's text and Vary, or MCP's challenge (or its plain `forbidden`). */
function expectedAnswer(door: Door, [status, message, challenge]: Exclude<Outcome, 'pass'>): { status: number; body: string; headers: Record<string, string> } {
  if (!MCP_DOORS.includes(door)) return { status, body: `${message}\n`, headers: { 'Content-Type': 'text/plain; charset=utf-8', Vary: 'Authorization' } };
  if (challenge === undefined) return { status, body: `${message}\n`, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  return {
    status,
    body: JSON.stringify({ error: challenge, error_description: message }),
    headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': `Bearer realm="Quarry", error="${challenge}", error_description="${message}", scope="mcp"` },
  };
}

describe('the authorization table', () => {
  for (const door of Object.keys(EXPECTED) as Door[]) {
    it(`${door}: answers every kind of caller on a private and on a public site`, () => {
      for (const [caller, auth] of Object.entries(CALLERS) as [Caller, Authentication][]) {
        for (const [siteName, site] of [['private', PRIVATE_SITE], ['public', PUBLIC_SITE]] as const) {
          const cell = EXPECTED[door][caller];
          const expected = typeof cell === 'object' && 'private' in cell ? cell[siteName] : cell;
          const decision = authorize(auth, door, auth.via === 'none' ? site : NOT_READ);
          const where = `${door}, ${caller}, ${siteName} site`;
          if (expected === 'pass') {
            assert.ok(decision.ok, `${where}: refused ${decision.ok ? '' : decision.refusal.message}`);
            assert.equal(decision.principal, auth.ok ? auth.principal : null, where);
          } else {
            assert.ok(!decision.ok, `${where}: passed`);
            assert.deepEqual(decision.refusal, { status: expected[0], message: expected[1], challenge: expected[2] ?? null }, where);
            assert.deepEqual(decision.answer, expectedAnswer(door, expected), where);
          }
        }
      }
    });
  }

  it('lets token-sudo only site admins whose token has site-admin:sudo, and no OAuth token', () => {
    assert.equal(authorizeSudo({ scopes: ['site-admin:sudo'], siteAdmin: true, audience: null }), null);
    assert.deepEqual(authorizeSudo({ scopes: ['user:all'], siteAdmin: true, audience: null }), { status: 401, message: INVALID_TOKEN });
    assert.deepEqual(authorizeSudo({ scopes: ['site-admin:sudo', 'user:all'], siteAdmin: false, audience: null }), { status: 403, message: SUDO_SUBJECT_NOT_ADMIN });
    assert.deepEqual(authorizeSudo({ scopes: ['site-admin:sudo'], siteAdmin: true, audience: '/' }), { status: 401, message: INVALID_TOKEN });
  });

});

describe('doors and paths', () => {
  it('sends every route\'s path to the door the route asks', () => {
    assert.equal(doorOf(GRAPHQL_PATH), 'graphql');
    assert.equal(doorOf(STREAM_PATH), 'stream');
    for (const path of ['/.api/deepsearch/v1', '/.api/deepsearch/v1/', '/.api/deepsearch/v1/7/questions']) assert.equal(doorOf(path), 'deepsearch', path);
    for (const [endpoint, path] of Object.entries(ENDPOINT_PATHS) as [Endpoint, string][]) {
      assert.equal(doorOf(path), ENDPOINT_DOORS[endpoint], path);
      assert.equal(doorOf(`${path}/`), ENDPOINT_DOORS[endpoint], `${path}/`);
    }
    assert.equal(doorOf('/.api/mcp/v1'), 'mcp', 'other paths under MCP are MCP\'s to answer');
    assert.equal(doorOf('/metrics'), 'metrics');
    assert.equal(doorOf('/healthz'), 'health');
    assert.equal(doorOf('/.well-known/oauth-protected-resource/.api/mcp'), 'discovery');
    assert.equal(doorOf(CONSOLE_PATH), 'console');
    for (const name of CONSOLE_ASSET_NAMES) assert.equal(doorOf(`${CONSOLE_ASSETS_PATH}${name}`), 'console', name);
    for (const path of ['/.auth/idp/oauth/token', '/.auth/idp/oauth/authorize', '/.auth/idp/oauth/device/code']) assert.equal(doorOf(path), 'oauth', path);
    for (const path of ['/sign-in', '/sign-out', '/device', '/settings', '/settings/tokens', '/deepsearch/shared/x.md']) assert.equal(doorOf(path), 'pages', path);
    for (const path of ['/', '/anything/else', '/.api/graphqlx', '/healthz/x', '/.api']) assert.equal(doorOf(path), 'other', path);
  });
});

describe('private mode at the edge', () => {
  let authenticate: Authenticator;
  useTempStore((store) => {
    authenticate = createAuthenticator(store);
  });
  const request = (path: string, headers: Record<string, string> = {}, query = '') => ({ path, auth: authenticate({ headers, query: new URLSearchParams(query) }) });

  it('refuses requests without credentials everywhere but the open paths and the self-guarded MCP door', () => {
    for (const path of ['/.api/graphql', '/.api/search/stream', '/metrics', '/anything/else', '/']) {
      assert.deepEqual(privateModeRefusal(request(path), PRIVATE_SITE), {
        status: 401, body: `${PRIVATE_MODE}\n`, headers: { 'Content-Type': 'text/plain; charset=utf-8', Vary: 'Authorization' },
      }, path);
    }
    for (const path of ['/healthz', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/.api/mcp', '/debug/console', '/debug/console/assets/graphiql.js', '/.api/mcp', '/.api/mcp/all', '/.api/mcp/whatever']) {
      assert.equal(privateModeRefusal(request(path), PRIVATE_SITE), null, path);
    }
  });

  it('lets requests with any credentials through to their door, and everything through on a public instance', () => {
    assert.equal(privateModeRefusal(request('/.api/graphql', { authorization: 'token whatever' }), NOT_READ), null);
    assert.equal(privateModeRefusal(request('/.api/graphql', { authorization: 'Nonsense' }), NOT_READ), null);
    assert.equal(privateModeRefusal(request('/.api/graphql', {}, 'token=abc'), NOT_READ), null);
    assert.equal(privateModeRefusal(request('/.api/graphql'), PUBLIC_SITE), null);
  });

  it('never authenticates a request bound for a door private mode leaves open', () => {
    const unresolved = (path: string) => ({ path, get auth(): Authentication { return assert.fail(`${path} was authenticated`); } });
    for (const path of ['/healthz', '/.well-known/openid-configuration', '/debug/console', '/.api/mcp/all']) assert.equal(privateModeRefusal(unresolved(path), PRIVATE_SITE), null);
  });
});

describe('Sourcegraph API doors and /metrics with real tokens', () => {
  let authenticate: Authenticator;
  let scraping: Authenticator;
  let user = '';
  let mcpOnly = '';
  let admin = '';
  let adminMcpOnly = '';
  useTempStore((store) => {
    authenticate = createAuthenticator(store);
    scraping = createAuthenticator(store, { scrapeToken: 'scrape-secret-0123456789' });
    const dev = createUser(store, { username: 'dev' });
    const root = createUser(store, { username: 'root', siteAdmin: true });
    user = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' }).token;
    mcpOnly = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['mcp'], note: '' }).token;
    admin = createAccessToken(store, { userId: root.id, creatorId: root.id, scopes: ['user:all'], note: '' }).token;
    adminMcpOnly = createAccessToken(store, { userId: root.id, creatorId: root.id, scopes: ['mcp'], note: '' }).token;
  });

  const refusalOf = (decision: ReturnType<typeof authorize>) => (decision.ok ? null : { status: decision.refusal.status, message: decision.refusal.message });

  it('refuses anonymous callers on a private instance and wrong-scope tokens always, with 401 texts', () => {
    let settings = { public: false };
    const api = (headers: Record<string, string>) => authorize(authenticate({ headers }), 'graphql', () => settings);
    assert.deepEqual(refusalOf(api({})), { status: 401, message: PRIVATE_MODE });
    assert.deepEqual(refusalOf(api({ authorization: `token ${mcpOnly}` })), { status: 401, message: INVALID_TOKEN });
    assert.deepEqual(refusalOf(api({ authorization: `token sgp_local_${'1'.repeat(40)}` })), { status: 401, message: INVALID_TOKEN });
    const allowed = api({ authorization: `token ${user}` });
    assert.ok(allowed.ok && allowed.principal.username === 'dev');
    settings = { public: true };
    const anonymous = api({});
    assert.ok(anonymous.ok && anonymous.principal.userId === null, 'a public instance serves anonymous callers');
    assert.deepEqual(refusalOf(api({ authorization: `token ${mcpOnly}` })), { status: 401, message: INVALID_TOKEN });
  });

  it('lets only site admins and the scrape token read /metrics', () => {
    const as = (authorization: string | null, query = '', site = PUBLIC_SITE, using = scraping) =>
      refusalOf(authorize(using({ headers: authorization === null ? {} : { authorization }, query: new URLSearchParams(query) }), 'metrics', site));
    assert.deepEqual(as(null), { status: 401, message: METRICS_NEED_CREDENTIALS });
    assert.deepEqual(as(null, '', PRIVATE_SITE), { status: 401, message: PRIVATE_MODE });
    assert.deepEqual(as(`token ${user}`), { status: 403, message: METRICS_NEED_ADMIN });
    assert.deepEqual(as(`token ${adminMcpOnly}`), { status: 401, message: INVALID_TOKEN });
    assert.deepEqual(as('Bearer scrape-secret-012345678'), { status: 401, message: INVALID_TOKEN });
    assert.equal(as(`token ${admin}`), null);
    assert.equal(as('Bearer scrape-secret-0123456789'), null);
    assert.equal(as('token scrape-secret-0123456789'), null);
    assert.equal(as(null, 'token=scrape-secret-0123456789', PRIVATE_SITE), null);
    assert.deepEqual(as('Bearer scrape-secret-0123456789', '', PUBLIC_SITE, authenticate), { status: 401, message: INVALID_TOKEN }, 'no scrape token configured');
    assert.deepEqual(refusalOf(authorize(scraping({ headers: { authorization: 'Bearer scrape-secret-0123456789' } }), 'graphql', PUBLIC_SITE)), { status: 401, message: INVALID_TOKEN }, 'the scrape token opens nothing else');
  });
});
