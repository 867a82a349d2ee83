/**
 * What a client may ask for: the scopes it was registered with (plus the identity scopes, which
 * grant nothing here), and redirect URIs that match its registered ones exactly, a loopback one on
 * any port (RFC 8252 §7.3). Pure.
 */
import type { OAuthClientRecord } from '../../store/records.js';

/** Scopes that open a door: GraphQL and the stream API (`user:all`), the MCP endpoints (`mcp`). */
export const RESOURCE_SCOPES = ['user:all', 'mcp'] as const;
/** Accepted for clients that always ask for them (src-cli does); they grant nothing here, and no ID token is issued. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
export const SUPPORTED_SCOPES: readonly string[] = [...RESOURCE_SCOPES, ...IDENTITY_SCOPES];

/** The scopes granted for a request's `scope` (the client's own when absent); null when it asks for one the client may not have. */
export function grantedScopes(client: Pick<OAuthClientRecord, 'scopes'>, requested: string | null): string[] | null {
  const asked = (requested ?? '').split(' ').filter(Boolean);
  if (asked.length === 0) return [...client.scopes].sort();
  if (asked.some((s) => !client.scopes.includes(s) && !(IDENTITY_SCOPES as readonly string[]).includes(s))) return null;
  if (!asked.some((s) => (RESOURCE_SCOPES as readonly string[]).includes(s))) return null;
  return [...new Set(asked)].sort();
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/**
 * Redirect URIs a client may register: https, http on a loopback host, or a private-use scheme
 * in reverse-domain form (`com.example.app:/callback`, RFC 8252 §7.1); never a fragment or
 * credentials. Returns why not, or null.
 */
export function redirectUriProblem(uri: string): string | null {
  const url = parse(uri);
  if (url === null) return `${JSON.stringify(uri)} is not an absolute URI`;
  if (url.hash !== '' || uri.includes('#')) return `${JSON.stringify(uri)} must not have a fragment`;
  if (url.username !== '' || url.password !== '') return `${JSON.stringify(uri)} must not carry credentials`;
  if (url.protocol === 'https:' || isLoopback(url)) return null;
  if (url.protocol === 'http:') return `${JSON.stringify(uri)} must use https (plain http only on 127.0.0.1, localhost or [::1])`;
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) return null;
  return `${JSON.stringify(uri)} must use https, a loopback http address, or a private-use scheme such as com.example.app:`;
}

/** Exact match, except that a loopback redirect may use any port (native apps pick one at run time). */
export function redirectUriMatches(registered: string, given: string): boolean {
  if (registered === given) return true;
  const a = parse(registered);
  const b = parse(given);
  if (a === null || b === null || !isLoopback(a) || !isLoopback(b)) return false;
  return a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search && b.hash === '';
}

/** The redirect URI a request uses: the one given if registered, else the only one registered when none is given. */
export function chooseRedirectUri(client: Pick<OAuthClientRecord, 'redirectUris'>, given: string | null): string | null {
  if (given === null) return client.redirectUris.length === 1 ? client.redirectUris[0]! : null;
  return client.redirectUris.some((r) => redirectUriMatches(r, given)) ? given : null;
}
