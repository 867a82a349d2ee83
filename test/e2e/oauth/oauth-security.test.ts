/**
 * The authorization server and the sign-in pages against attacks, on a real `quarry serve`: code
 * reuse, PKCE downgrade and a wrong verifier, redirect URI mismatch and open redirects, refresh
 * token replay after its grace, revoked and expired tokens, dynamic registration turned off
 * mid-session, CSRF on every form, sign-in brute force, session fixation, and no secret in the log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALICE, FormBrowser, csrfOf, hiddenFields, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { authorizeQuery, codeFor, consent, mcpStatus, pkce, publicClient, REDIRECT, register, tokenRequest, tokensFor } from './oauth-flow.js';

let quarry: OAuthFixture;
let browser: FormBrowser;
const secrets: string[] = [ALICE.password];

before(async () => {
  quarry = await startOAuthQuarry({ 'auth.oauth.accessTokenExpirySeconds': 3, 'auth.oauth.refreshTokenReuseGraceSeconds': 2 });
  browser = new FormBrowser(quarry.url);
  assert.equal((await browser.signIn()).status, 303);
});

after(async () => {
  await quarry?.dispose();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('authorization codes and PKCE', () => {
  it('a code works once; presenting it again revokes what it gave', async () => {
    const { clientId, pkce: pair, code } = await codeFor(quarry.url, browser);
    const exchange = () => tokenRequest(quarry.url, { grant_type: 'authorization_code', code, code_verifier: pair.verifier, client_id: clientId, redirect_uri: REDIRECT });
    const first = await exchange();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    secrets.push(first.body['access_token']!, first.body['refresh_token']!, code);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), first.body['access_token']!), 200);
    const second = await exchange();
    assert.deepEqual([second.status, second.body['error']], [400, 'invalid_grant']);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), first.body['access_token']!), 401, 'the first exchange\'s token is revoked');
    const refresh = await tokenRequest(quarry.url, { grant_type: 'refresh_token', refresh_token: first.body['refresh_token']!, client_id: clientId });
    assert.equal(refresh.body['error'], 'invalid_grant');
  });

  it('refuses a request without PKCE or with plain, back at the redirect URI with state and iss', async () => {
    const clientId = await publicClient(quarry.url);
    for (const extra of [{}, { code_challenge: pkce().verifier, code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const response = await browser.get(`/.auth/idp/oauth/authorize?${authorizeQuery(clientId, null, extra)}`);
      assert.equal(response.status, 302);
      const location = new URL(response.headers.get('location')!);
      assert.equal(location.origin + location.pathname, REDIRECT);
      assert.equal(location.searchParams.get('error'), 'invalid_request');
      assert.equal(location.searchParams.get('state'), 'st4te');
      assert.equal(location.searchParams.get('iss'), quarry.url);
      assert.equal(location.searchParams.get('code'), null);
    }
  });

  it('a wrong verifier gets invalid_grant and burns the code', async () => {
    const { clientId, pkce: pair, code } = await codeFor(quarry.url, browser);
    const wrong = await tokenRequest(quarry.url, { grant_type: 'authorization_code', code, code_verifier: pkce().verifier, client_id: clientId });
    assert.deepEqual([wrong.status, wrong.body['error']], [400, 'invalid_grant']);
    const right = await tokenRequest(quarry.url, { grant_type: 'authorization_code', code, code_verifier: pair.verifier, client_id: clientId });
    assert.equal(right.body['error'], 'invalid_grant', 'a code is consumed by its first presentation');
  });

  it('a code cannot be exchanged by another client', async () => {
    const { pkce: pair, code } = await codeFor(quarry.url, browser);
    const other = await publicClient(quarry.url);
    const stolen = await tokenRequest(quarry.url, { grant_type: 'authorization_code', code, code_verifier: pair.verifier, client_id: other });
    assert.equal(stolen.body['error'], 'invalid_grant');
  });
});

describe('redirect URIs', () => {
  it('an unregistered redirect URI is shown an error page and never redirected to', async () => {
    const clientId = await publicClient(quarry.url);
    for (const redirect of ['https://evil.example/callback', 'http://127.0.0.1:8976/other', 'http://localhost:8976/callback']) {
      const response = await browser.get(`/.auth/idp/oauth/authorize?${authorizeQuery(clientId, pkce(), { redirect_uri: redirect })}`);
      assert.equal(response.status, 400, redirect);
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /not one this application registered/);
    }
    const loopbackPort = await consent(browser, authorizeQuery(clientId, pkce(), { redirect_uri: 'http://127.0.0.1:41234/callback' }));
    assert.equal(loopbackPort.origin, 'http://127.0.0.1:41234', 'a loopback redirect may use any port (RFC 8252)');
  });

  it('registration refuses redirect URIs that are not https, loopback or a private-use scheme', async () => {
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://x.example/cb#frag']) {
      const { status, body } = await register(quarry.url, { redirect_uris: [uri] });
      assert.deepEqual([status, body['error']], [400, 'invalid_redirect_uri'], uri);
    }
    const { status, body } = await register(quarry.url, { scope: 'mcp user:all' });
    assert.deepEqual([status, body['error']], [400, 'invalid_client_metadata'], 'registered clients get mcp only');
    const withIdentity = await register(quarry.url, { scope: 'mcp offline_access' });
    assert.deepEqual([withIdentity.status, withIdentity.body['scope']], [201, 'mcp'], 'offline_access (mcp-remote asks for it) is accepted and grants nothing more');
  });

  it('sign-in never sends the browser off the site', async () => {
    const visitor = new FormBrowser(quarry.url);
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const done = await visitor.signIn(ALICE.username, ALICE.password, target);
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), '/settings', target);
      const signedIn = await visitor.get(`/sign-in?return_to=${encodeURIComponent(target)}`);
      assert.equal(signedIn.headers.get('location'), '/settings', `${target}, signed in`);
      assert.equal((await visitor.post('/sign-out', { csrf: csrfOf(await (await visitor.get('/settings')).text()) })).status, 303);
    }
  });
});

describe('tokens', () => {
  it('a refresh token rotates; a retry within the grace gets the same pair; a replay after it revokes the grant', async () => {
    const { clientId, refresh } = await tokensFor(quarry.url, browser);
    const use = () => tokenRequest(quarry.url, { grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId });
    const first = await use();
    assert.equal(first.status, 200);
    assert.notEqual(first.body['refresh_token'], refresh);
    const retry = await use();
    assert.deepEqual(retry.body, first.body, 'within the grace the same successor comes back');
    await sleep(2500);
    const replay = await use();
    assert.deepEqual([replay.status, replay.body['error']], [400, 'invalid_grant']);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), first.body['access_token']!), 401, 'the whole grant is revoked');
    const successor = await tokenRequest(quarry.url, { grant_type: 'refresh_token', refresh_token: first.body['refresh_token']!, client_id: clientId });
    assert.equal(successor.body['error'], 'invalid_grant');
  });

  it('a revoked token and an expired one are refused on the next request', async () => {
    const { clientId, access } = await tokensFor(quarry.url, browser);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), access), 200);
    const revoked = await fetch(`${quarry.url}/.auth/idp/oauth/revoke`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: access, client_id: clientId }).toString(),
    });
    assert.equal(revoked.status, 200);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), access), 401);
    const fresh = await tokensFor(quarry.url, browser);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), fresh.access), 200);
    await sleep(3500);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), fresh.access), 401, 'expired after 3 s');
  });

  it('introspection shows a client its own live tokens only', async () => {
    const { clientId, access } = await tokensFor(quarry.url, browser);
    const ask = async (asker: string) => (await fetch(`${quarry.url}/.auth/idp/oauth/introspect`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: access, client_id: asker }).toString(),
    })).json() as Promise<Record<string, unknown>>;
    const own = await ask(clientId);
    assert.equal(own['active'], true);
    assert.equal(own['username'], ALICE.username);
    assert.equal(own['aud'], quarry.url);
    assert.deepEqual(await ask(await publicClient(quarry.url)), { active: false });
  });

  it('turning dynamic registration off mid-session: register answers 404 and registered clients\' tokens stop', async () => {
    const { access } = await tokensFor(quarry.url, browser);
    assert.equal(await mcpStatus(quarry.endpointUrl('core'), access), 200);
    quarry.setConfig({ 'auth.idpDynamicClientRegistrationEnabled': false, 'auth.oauth.accessTokenExpirySeconds': 3, 'auth.oauth.refreshTokenReuseGraceSeconds': 2 });
    try {
      assert.equal(await mcpStatus(quarry.endpointUrl('core'), access), 401);
      const { status, body } = await register(quarry.url);
      assert.deepEqual([status, body], [404, { error: 'not found' }]);
      const metadata = await (await fetch(`${quarry.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
      assert.equal(metadata['registration_endpoint'], undefined);
    } finally {
      quarry.setConfig({ 'auth.oauth.accessTokenExpirySeconds': 3, 'auth.oauth.refreshTokenReuseGraceSeconds': 2 });
    }
  });
});

describe('the pages', () => {
  it('every form refuses a post without this session\'s CSRF token, or from another origin', async () => {
    const visitor = new FormBrowser(quarry.url);
    const page = await (await visitor.get('/sign-in')).text();
    const csrf = csrfOf(page);
    const form = { username: ALICE.username, password: ALICE.password, return_to: '/settings' };
    assert.equal((await visitor.post('/sign-in', form)).status, 403, 'no token');
    assert.equal((await visitor.post('/sign-in', { ...form, csrf: csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) })).status, 403, 'a wrong token');
    assert.equal((await visitor.post('/sign-in', { ...form, csrf }, { origin: 'https://evil.example' })).status, 403, 'another origin');
    assert.equal((await new FormBrowser(quarry.url).post('/sign-in', { ...form, csrf })).status, 403, 'another browser\'s token');
    assert.equal((await visitor.post('/sign-in', { ...form, csrf })).status, 303);

    const clientId = await publicClient(quarry.url);
    const consentPage = await (await visitor.get(`/.auth/idp/oauth/authorize?${authorizeQuery(clientId, pkce())}`)).text();
    const fields = hiddenFields(consentPage);
    const signedInCsrf = csrfOf(consentPage);
    assert.notEqual(signedInCsrf, csrf, 'signing in changes the token');
    for (const [path, posted] of [
      ['/.auth/idp/oauth/authorize', { ...fields, decision: 'allow' }],
      ['/device', { user_code: 'BBBB-BBBB', decision: 'allow' }],
      ['/sign-out', {}],
    ] as const) {
      assert.equal((await visitor.post(path, { ...posted, csrf })).status, 403, `${path} with the pre-sign-in token`);
      assert.equal((await visitor.post(path, { ...posted, csrf: signedInCsrf }, { origin: 'https://evil.example' })).status, 403, `${path} from another origin`);
    }
    assert.equal((await visitor.get('/settings')).status, 200, 'still signed in: the refused sign-out did nothing');
    assert.equal((await visitor.post('/sign-out', { csrf: signedInCsrf })).status, 303);
    assert.equal((await visitor.get('/settings')).status, 303, 'signed out');
  });

  it('sign-in is rate-limited per username: past 5 failures even the right password waits', async () => {
    const created = quarry.quarry(['users', 'create', 'target', '--password-stdin'], 'target-password\n');
    assert.equal(created.status, 0, created.stderr);
    secrets.push('target-password');
    const visitor = new FormBrowser(quarry.url);
    for (let i = 0; i < 5; i++) assert.equal((await visitor.signIn('target', `guess-${i}`)).status, 401);
    const blocked = await visitor.signIn('target', 'target-password');
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    assert.match(await blocked.text(), /Too many failed sign-ins/);
    assert.equal((await new FormBrowser(quarry.url).signIn()).status, 303, 'other users still sign in');
  });

  it('sign-in always starts a new session: a planted or earlier session id never becomes signed in', async () => {
    const visitor = new FormBrowser(quarry.url);
    visitor.setCookie('quarry_session', 'planted-by-an-attacker-0123456789abcdef0123456');
    assert.equal((await visitor.signIn()).status, 303);
    const first = visitor.cookie('quarry_session')!;
    assert.notEqual(first, 'planted-by-an-attacker-0123456789abcdef0123456');
    const planted = new FormBrowser(quarry.url);
    planted.setCookie('quarry_session', 'planted-by-an-attacker-0123456789abcdef0123456');
    assert.equal((await planted.get('/settings')).status, 303, 'the planted id signs nobody in');
    const settings = await (await visitor.get('/settings')).text();
    const again = await visitor.post('/sign-in', { csrf: csrfOf(settings), username: ALICE.username, password: ALICE.password, return_to: '/settings' });
    assert.equal(again.status, 303);
    const second = visitor.cookie('quarry_session')!;
    assert.notEqual(second, first);
    const stale = new FormBrowser(quarry.url);
    stale.setCookie('quarry_session', first);
    assert.equal((await stale.get('/settings')).status, 303, 'the earlier session ended at the new sign-in');
  });

  it('cookies are HttpOnly and SameSite=Lax, and Secure with __Host- behind TLS', async () => {
    const plain = await fetch(`${quarry.url}/sign-in`);
    assert.match(plain.headers.get('set-cookie') ?? '', /^quarry_presession=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const tls = await fetch(`${quarry.url}/sign-in`, { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(tls.headers.get('set-cookie') ?? '', /^__Host-quarry_presession=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    assert.match(plain.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });

  it('the log holds no password, token, code or client secret', async () => {
    const { status, body } = await register(quarry.url, { token_endpoint_auth_method: 'client_secret_basic' });
    assert.equal(status, 201);
    secrets.push(body['client_secret'] as string);
    const log = quarry.server.output();
    for (const secret of secrets) assert.ok(!log.includes(secret), 'a secret reached the log');
  });
});
