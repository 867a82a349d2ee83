/**
 * Client ID Metadata Documents against a real `quarry serve` and a real HTTPS document host on
 * loopback: loopback hosts are refused until the site allows them; the SDK client with a
 * clientMetadataUrl authorizes without registering (consent in Chromium names the document and
 * warns that it only returns to loopback) and lists tools; bad documents are shown, never
 * redirected to; the HTTP cache lifetime decides when a document is read again; and turning
 * self-registration off stops document clients.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { expectedToolNames } from '../mcp/quarry-fixture.js';
import { jsonDocument, startDocumentServer, type DocumentServer } from './document-server.js';
import { ALICE, FormBrowser, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { pkce, REDIRECT } from './oauth-flow.js';
import { screenshot } from './screenshots.js';

const LOOPBACK_ALLOWED = { 'auth.oauth.clientMetadataDocumentsAllowLoopback': true };

let quarry: OAuthFixture;
let documents: DocumentServer;
let browser: Browser;
let callbackServer: Server;
let callback = '';
const arrivals: ((url: URL) => void)[] = [];

before(async () => {
  documents = await startDocumentServer();
  quarry = await startOAuthQuarry({}, { ...process.env, NODE_EXTRA_CA_CERTS: documents.certificateFile });
  callbackServer = createServer((request, response) => {
    const url = new URL(request.url ?? '/', callback);
    if (url.pathname === '/callback') arrivals.shift()?.(url);
    response.end('done');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(callbackServer.address() as { port: number }).port}/callback`;
  browser = await launchBrowser();
}, { timeout: 120_000 });

after(async () => {
  await browser?.close();
  await quarry?.dispose();
  await documents?.close();
  callbackServer?.close();
});

function documentFor(path: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: `${documents.origin}${path}`, client_name: 'Doc Client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', ...fields };
}

function authorizeUrl(clientId: string, extra: Record<string, string> = {}): string {
  return `/.auth/idp/oauth/authorize?${new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp', state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256', ...extra,
  })}`;
}

/** The authorization fails on a page of its own: 400, no Location, the reason shown. */
async function refused(clientId: string, reason: RegExp, extra: Record<string, string> = {}): Promise<void> {
  const response = await new FormBrowser(quarry.url).get(authorizeUrl(clientId, extra));
  const page = await response.text();
  assert.equal(response.status, 400, `${clientId}: ${page.slice(0, 300)}`);
  assert.equal(response.headers.get('location'), null, 'never redirected: the document\'s redirect URIs are not trusted');
  assert.match(page.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))).replace(/&quot;/g, '"'), reason, clientId);
}

describe('client ID metadata documents', () => {
  it('are advertised in the authorization server metadata', async () => {
    const metadata = await (await fetch(`${quarry.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    assert.equal(metadata['client_id_metadata_document_supported'], true);
  });

  it('are not fetched from loopback until the site allows it', async () => {
    documents.answer('/blocked.json', jsonDocument(documentFor('/blocked.json')));
    await refused(`${documents.origin}/blocked.json`, /the address 127\.0\.0\.1 is a loopback address; it is not fetched/);
    assert.equal(documents.requests('/blocked.json'), 0, 'no request reached the host');
    await refused('https://10.1.2.3/client.json', /10\.1\.2\.3 is a private or reserved address/);
    await refused('https://[::ffff:c0a8:101]/client.json', /::ffff:c0a8:101 is a private or reserved address/);
    quarry.setConfig(LOOPBACK_ALLOWED);
    await refused('https://10.1.2.3/client.json', /private or reserved address/);
  });

  it('the SDK client with a clientMetadataUrl authorizes without registering, and lists tools', { timeout: 120_000 }, async () => {
    const path = '/sdk-client.json';
    const clientId = `${documents.origin}${path}`;
    documents.answer(path, jsonDocument(documentFor(path, { client_name: 'SDK by document', redirect_uris: [callback] })));
    const provider = new DocumentProvider(clientId);
    const endpoint = new URL(quarry.endpointUrl('core'));
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await assert.rejects(new Client({ name: 'cimd-e2e', version: '1' }).connect(first), UnauthorizedError);
    const url = provider.authorizationUrl!;
    assert.equal(url.searchParams.get('client_id'), clientId, 'the SDK used the URL as its client_id');

    const context = await browser.newContext();
    const page = await context.newPage();
    const redirected = new Promise<URL>((resolve) => arrivals.push(resolve));
    await page.goto(url.href);
    await page.fill('#username', ALICE.username);
    await page.fill('#password', ALICE.password);
    await page.click('main button[type=submit]');
    await page.waitForSelector('button[value=allow]');
    const text = await page.textContent('main') ?? '';
    assert.match(text, /Authorize SDK by document\?/);
    assert.ok(text.includes(`described by its document at ${clientId}`), text);
    assert.ok(text.includes(new URL(callback).host), 'the redirect host is named');
    assert.match(text, /only returns to your own computer/, 'a loopback-only document is flagged');
    await screenshot(page, 'consent-client-metadata-document');
    await page.click('button[value=allow]');
    const code = (await redirected).searchParams.get('code')!;
    void context.close().catch(() => undefined);

    await first.finishAuth(code);
    assert.match(provider.tokens()!.access_token, /^sgo_at_/);
    const client = new Client({ name: 'cimd-e2e', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), expectedToolNames('core'));
    await client.close();
    assert.equal(documents.requests(path), 1, 'read once, then its cached copy (max-age=300) served the token request too');
    const apps = JSON.parse(quarry.quarry(['oauth-apps', 'list', '--json']).stdout) as { clientId: string; dynamic: boolean }[];
    assert.deepEqual(apps.filter((a) => a.dynamic).map((a) => a.clientId), [clientId], 'no client was registered by RFC 7591');
  });

  it('refuses bad documents on a page of its own', { timeout: 60_000 }, async () => {
    const cases: [string, Parameters<DocumentServer['answer']>[1], RegExp][] = [
      ['/other-id.json', jsonDocument(documentFor('/somewhere-else.json')), /its client_id ".*\/somewhere-else\.json" is not the URL it was fetched from/],
      ['/secret.json', jsonDocument(documentFor('/secret.json', { client_secret: 'x' })), /holds a client_secret/],
      ['/basic.json', jsonDocument(documentFor('/basic.json', { token_endpoint_auth_method: 'client_secret_basic' })), /only "none"/],
      ['/bad-redirect.json', jsonDocument(documentFor('/bad-redirect.json', { redirect_uris: ['http://evil.example/cb'] })), /must use https/],
      ['/no-name.json', jsonDocument(documentFor('/no-name.json', { client_name: '' })), /client_name must be/],
      ['/large.json', jsonDocument(documentFor('/large.json', { client_uri: `https://x.example/${'a'.repeat(6000)}` })), /larger than 5120 bytes/],
      ['/moved.json', { status: 302, headers: { location: '/sdk-client.json' } }, /302, a redirect; redirects are not followed/],
      ['/missing.json', { status: 404, body: 'no' }, /answered HTTP 404/],
      ['/html.json', { headers: { 'content-type': 'text/html' }, body: '{}' }, /Content-Type is "text\/html"/],
      ['/broken.json', jsonDocument('{"client_id":'), /not JSON/],
    ];
    for (const [path, answer, reason] of cases) {
      documents.answer(path, answer);
      await refused(`${documents.origin}${path}`, reason);
    }
    documents.answer('/listed.json', jsonDocument(documentFor('/listed.json')));
    await refused(`${documents.origin}/listed.json`, /not one this application registered/, { redirect_uri: 'https://evil.example/cb' });
    await refused(`http://127.0.0.1/client.json`, /must use https/);
    await refused(`${documents.origin}/a/../listed.json`, /canonical form/);
  });

  it('gives up on a host that does not answer within 5 seconds', { timeout: 30_000 }, async () => {
    documents.answer('/slow.json', { ...jsonDocument(documentFor('/slow.json')), delayMs: 8_000 });
    const started = Date.now();
    await refused(`${documents.origin}/slow.json`, /took over 5000 ms/);
    const took = Date.now() - started;
    assert.ok(took >= 4_900 && took < 7_900, `refused after ${took} ms`);
  });

  it('reads a document again when its cache lifetime ends, and at every use with no-store', { timeout: 60_000 }, async () => {
    const signedIn = new FormBrowser(quarry.url);
    await signedIn.signIn();
    const path = '/cached.json';
    documents.answer(path, (previous) => jsonDocument(documentFor(path, { client_name: `Cached v${previous + 1}` }), 'max-age=2'));
    const consentName = async (): Promise<string> => /<h1>Authorize (.*)\?<\/h1>/.exec(await (await signedIn.get(authorizeUrl(`${documents.origin}${path}`))).text())?.[1] ?? '';
    assert.equal(await consentName(), 'Cached v1');
    assert.equal(await consentName(), 'Cached v1');
    assert.equal(documents.requests(path), 1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(await consentName(), 'Cached v2', 'read again after max-age');
    assert.equal(documents.requests(path), 2);

    documents.answer('/uncached.json', jsonDocument(documentFor('/uncached.json'), 'no-store'));
    for (let i = 0; i < 2; i++) assert.equal((await signedIn.get(authorizeUrl(`${documents.origin}/uncached.json`))).status, 200);
    assert.equal(documents.requests('/uncached.json'), 2);
  });

  it('stop working, and are no longer advertised, when self-registration is off', async () => {
    quarry.setConfig({ ...LOOPBACK_ALLOWED, 'auth.idpDynamicClientRegistrationEnabled': false });
    try {
      const metadata = await (await fetch(`${quarry.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
      assert.equal(metadata['client_id_metadata_document_supported'], false);
      await refused(`${documents.origin}/sdk-client.json`, /not registered with this server/);
    } finally {
      quarry.setConfig(LOOPBACK_ALLOWED);
    }
  });
});

class DocumentProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier = '';

  constructor(readonly clientMetadataUrl: string) {}

  get redirectUrl(): string {
    return callback;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'unused: the document describes the client', redirect_uris: [callback], token_endpoint_auth_method: 'none' };
  }

  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.current; }
  saveTokens(tokens: OAuthTokens) { this.current = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}
