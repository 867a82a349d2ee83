/**
 * The OAuth steps the security tests repeat, spoken over plain HTTP as a client and a browser
 * without JavaScript would: register a client, walk the authorization (consent form included) to a
 * code, exchange it, refresh, and call an MCP endpoint with the token.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { csrfOf, hiddenFields, type FormBrowser } from './oauth-fixture.js';

export const REDIRECT = 'http://127.0.0.1:8976/callback';

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function register(origin: string, metadata: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/.auth/idp/oauth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Security test', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

export async function publicClient(origin: string): Promise<string> {
  const { status, body } = await register(origin);
  assert.equal(status, 201, JSON.stringify(body));
  return body['client_id'] as string;
}

export function authorizeQuery(clientId: string, challenge: Pkce | null, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp', state: 'st4te',
    ...(challenge === null ? {} : { code_challenge: challenge.challenge, code_challenge_method: 'S256' }), ...extra,
  }).toString();
}

/** A signed-in browser allows the request on the consent page (or is sent straight back if it allowed before); the Location it ends at. */
export async function consent(browser: FormBrowser, query: string): Promise<URL> {
  const page = await browser.get(`/.auth/idp/oauth/authorize?${query}`);
  if (page.status === 302) return new URL(page.headers.get('location')!);
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 500));
  const posted = await browser.post('/.auth/idp/oauth/authorize', { ...hiddenFields(html), csrf: csrfOf(html), decision: 'allow' });
  assert.equal(posted.status, 303);
  return new URL(posted.headers.get('location')!);
}

export async function tokenRequest(origin: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, string>; headers: Headers }> {
  const response = await fetch(`${origin}/.auth/idp/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: await response.json() as Record<string, string>, headers: response.headers };
}

/** A client, its PKCE pair and a fresh code for it. */
export async function codeFor(origin: string, browser: FormBrowser, extra: Record<string, string> = {}): Promise<{ clientId: string; pkce: Pkce; code: string }> {
  const clientId = await publicClient(origin);
  const pair = pkce();
  const location = await consent(browser, authorizeQuery(clientId, pair, extra));
  const code = location.searchParams.get('code');
  assert.ok(code, `no code in ${location}`);
  return { clientId, pkce: pair, code };
}

export async function tokensFor(origin: string, browser: FormBrowser, extra: Record<string, string> = {}): Promise<{ clientId: string; access: string; refresh: string }> {
  const { clientId, pkce: pair, code } = await codeFor(origin, browser, extra);
  const { status, body } = await tokenRequest(origin, { grant_type: 'authorization_code', code, code_verifier: pair.verifier, redirect_uri: REDIRECT, client_id: clientId });
  assert.equal(status, 200, JSON.stringify(body));
  return { clientId, access: body['access_token']!, refresh: body['refresh_token']! };
}

/** tools/list on an MCP endpoint with the token: the HTTP status. */
export async function mcpStatus(url: string, accessToken: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.arrayBuffer();
  return response.status;
}
