/**
 * The official MCP SDK client's OAuth provider against a real `quarry serve`, on each MCP
 * endpoint, end to end: 401 with resource metadata, discovery, dynamic registration (public and
 * confidential clients), PKCE authorization with the sign-in and consent pages submitted in
 * Debian's chromium, the token, tools listed, and after the 5-second access token expired a
 * refresh that rotates the refresh token. Then the device flow through the `/device` page.
 * Every page visited is screenshotted (screenshots.ts).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ENDPOINT_PATHS } from '../../../src/api/mcp/registry.js';
import type { Endpoint } from '../../../src/api/mcp/tool.js';
import { launchBrowser } from '../browser.js';
import { ENDPOINTS, expectedToolNames } from '../mcp/quarry-fixture.js';
import { ALICE, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { screenshot, SCREENSHOT_DIR } from './screenshots.js';

/** The redirect URI: a real loopback server (the browser follows redirects past any interception). */
let CALLBACK = '';
/** Short enough to see a refresh, long enough that a busy machine finishes connecting before it expires. */
const ACCESS_SECONDS = 5;
let callbackServer: Server;
const arrivals: ((url: URL) => void)[] = [];

/** A step that must end within `ms`, failing with its name instead of hanging the test. */
async function within<T>(ms: number, step: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${step}: not done after ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

class RecordingProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  readonly saved: OAuthTokens[] = [];
  private info: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier = '';

  constructor(private readonly authMethod: 'none' | 'client_secret_basic') {}

  get redirectUrl(): string {
    return CALLBACK;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `SDK e2e (${this.authMethod})`, redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: this.authMethod,
    };
  }

  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.current; }
  saveTokens(tokens: OAuthTokens) {
    this.current = tokens;
    this.saved.push(tokens);
  }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

let quarry: OAuthFixture;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  callbackServer = createServer((request, response) => {
    const url = new URL(request.url ?? '/', CALLBACK);
    // The browser also asks the callback's origin for a favicon.
    if (url.pathname === '/callback') arrivals.shift()?.(url);
    response.end('done');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  CALLBACK = `http://127.0.0.1:${(callbackServer.address() as { port: number }).port}/callback`;
  quarry = await startOAuthQuarry({ 'auth.oauth.accessTokenExpirySeconds': ACCESS_SECONDS });
  browser = await launchBrowser();
  context = await browser.newContext();
});

after(async () => {
  await context?.close();
  await browser?.close();
  await quarry?.dispose();
  callbackServer?.close();
});

/** Opens the authorization URL; signs in if asked; allows on the consent page; returns the code the redirect carried. */
async function consentInBrowser(url: URL, shots: string): Promise<{ code: string; state: string | null; iss: string | null }> {
  const page = await context.newPage();
  const redirected = new Promise<URL>((resolve) => arrivals.push(resolve));
  await page.goto(url.href);
  if (page.url().includes('/sign-in')) {
    await screenshot(page, 'sign-in');
    await page.fill('#username', ALICE.username);
    await page.fill('#password', ALICE.password);
    await page.click('main button[type=submit]');
  }
  await page.waitForSelector('button[value=allow]');
  const text = await page.textContent('main');
  assert.match(text ?? '', /Authorize SDK e2e/);
  assert.ok(text?.includes(new URL(CALLBACK).host), 'the consent page names where the browser will be sent');
  await screenshot(page, `consent-${shots}`);
  await page.click('button[value=allow]');
  const answer = await redirected;
  closeWithoutWaiting(page);
  return { code: answer.searchParams.get('code') ?? '', state: answer.searchParams.get('state'), iss: answer.searchParams.get('iss') };
}

/**
 * Chromium sometimes never acknowledges closing a page that has just followed a redirect to the
 * loopback callback (seen: page.close() waiting past the test's timeout); the context closes it
 * at the end in any case.
 */
function closeWithoutWaiting(page: Page): void {
  void page.close().catch(() => undefined);
}

async function connect(endpoint: Endpoint, provider: RecordingProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(quarry.endpointUrl(endpoint)), { authProvider: provider });
  const client = new Client({ name: 'quarry-oauth-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('the SDK client connects with OAuth alone', () => {
  for (const endpoint of ENDPOINTS) {
    const method = endpoint === 'all' ? 'client_secret_basic' : 'none';
    it(`${ENDPOINT_PATHS[endpoint]}: registers (${method}), authorizes in the browser, lists tools, refreshes`, { timeout: 120_000 }, async () => {
      const provider = new RecordingProvider(method);
      const first = new StreamableHTTPClientTransport(new URL(quarry.endpointUrl(endpoint)), { authProvider: provider });
      await assert.rejects(new Client({ name: 'quarry-oauth-e2e', version: '1.0.0' }).connect(first), UnauthorizedError);
      const url = provider.authorizationUrl!;
      assert.ok(url, 'the SDK asked for a browser');
      assert.equal(url.origin + url.pathname, `${quarry.url}/.auth/idp/oauth/authorize`);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('resource'), quarry.endpointUrl(endpoint), 'the resource is the endpoint, from its metadata');
      const info = provider.clientInformation() as { client_id: string; client_secret?: string };
      assert.match(info.client_id, /^sgo_cid_/);
      assert.equal(info.client_secret !== undefined, method !== 'none');

      const { code, state, iss } = await consentInBrowser(url, endpoint);
      assert.equal(state, url.searchParams.get('state'));
      assert.equal(iss, quarry.url, 'RFC 9207 iss is the issuer');
      await within(30_000, 'exchanging the code', first.finishAuth(code));
      const tokens = provider.tokens()!;
      assert.match(tokens.access_token, /^sgo_at_/);
      assert.equal(tokens.scope, 'mcp');
      assert.equal(tokens.expires_in, ACCESS_SECONDS);

      const { client } = await within(30_000, 'connecting with the token', connect(endpoint, provider));
      const listed = (await within(30_000, 'listing tools', client.listTools())).tools.map((t) => t.name).sort();
      assert.deepEqual(listed, expectedToolNames(endpoint));

      await new Promise((resolve) => setTimeout(resolve, ACCESS_SECONDS * 1000 + 500));
      assert.deepEqual((await within(30_000, 'listing tools after a refresh', client.listTools())).tools.map((t) => t.name).sort(), expectedToolNames(endpoint));
      assert.ok(provider.saved.length >= 2, 'the expired token was refreshed');
      const refreshed = provider.tokens()!;
      assert.notEqual(refreshed.access_token, tokens.access_token);
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'refresh tokens rotate');
      await client.close();
    });
  }

  it('a token for one endpoint is refused on another and on GraphQL, the challenge naming that endpoint\'s metadata', { timeout: 60_000 }, async () => {
    const provider = new RecordingProvider('none');
    const first = new StreamableHTTPClientTransport(new URL(quarry.endpointUrl('all')), { authProvider: provider });
    await assert.rejects(new Client({ name: 'x', version: '1' }).connect(first), UnauthorizedError);
    await first.finishAuth((await consentInBrowser(provider.authorizationUrl!, 'remembered')).code);
    const bearer = { authorization: `Bearer ${provider.tokens()!.access_token}` };
    const response = await fetch(quarry.endpointUrl('core'), {
      method: 'POST', headers: { ...bearer, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token".*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/\.api\/mcp"$/);
    const graphql = await fetch(`${quarry.url}/.api/graphql`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"query":"{ currentUser { username } }"}' });
    assert.equal(graphql.status, 401);
    assert.equal(await graphql.text(), 'Invalid access token.\n');
  });
});

describe('the device flow through the /device page', () => {
  it('a device gets a token once a signed-in person approves its code', { timeout: 60_000 }, async () => {
    const registered = await (await fetch(`${quarry.url}/.auth/idp/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'A terminal', token_endpoint_auth_method: 'none', grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] }),
    })).json() as { client_id: string };
    const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const device = await (await fetch(`${quarry.url}/.auth/idp/oauth/device/code`, form({ client_id: registered.client_id, scope: 'mcp', resource: quarry.endpointUrl('core') }))).json() as {
      device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; interval: number;
    };
    assert.match(device.user_code, /^[B-Z]{4}-[B-Z]{4}$/);
    assert.equal(device.verification_uri, `${quarry.url}/device`);
    const poll = () => fetch(`${quarry.url}/.auth/idp/oauth/token`, form({ client_id: registered.client_id, grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code }));
    const pending = await poll();
    assert.equal(pending.status, 400);
    assert.equal(((await pending.json()) as { error: string }).error, 'authorization_pending');

    const page: Page = await context.newPage();
    await page.goto(`${quarry.url}/device`);
    await screenshot(page, 'device-enter-code');
    await page.fill('#user_code', 'BBBB-BBBB');
    await Promise.all([page.waitForURL(/user_code=/), page.click('main button[type=submit]')]);
    assert.match(await page.textContent('main') ?? '', /unknown, expired or already used/);
    await screenshot(page, 'device-unknown-code');
    await page.fill('#user_code', device.user_code.toLowerCase().replace('-', ''));
    await Promise.all([page.waitForURL(/user_code=/), page.click('main button[type=submit]')]);
    assert.match(await page.textContent('main') ?? '', /Connect A terminal\?/);
    await screenshot(page, 'device-confirm');
    await Promise.all([page.waitForLoadState(), page.click('button[value=allow]')]);
    await page.waitForSelector('text=Device connected');
    await screenshot(page, 'device-connected');
    await page.goto(`${quarry.url}/settings`);
    await screenshot(page, 'settings');
    closeWithoutWaiting(page);

    await new Promise((resolve) => setTimeout(resolve, device.interval * 1000));
    const granted = await poll();
    const tokens = await granted.json() as { access_token: string; refresh_token: string; scope: string };
    assert.equal(granted.status, 200, JSON.stringify(tokens));
    assert.equal(granted.headers.get('cache-control'), 'no-store');
    const mcp = await fetch(quarry.endpointUrl('core'), {
      method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(mcp.status, 200);
    const again = await poll();
    assert.equal(((await again.json()) as { error: string }).error, 'invalid_grant', 'a device code gives tokens once');
    assert.ok(existsSync(`${SCREENSHOT_DIR}device-confirm.png`));
  });
});
