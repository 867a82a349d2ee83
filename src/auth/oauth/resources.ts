/**
 * The resources (RFC 8707) this server is, and the origin it is reached at: an OAuth token's
 * audience is one of these paths, and a `resource` parameter names one by URL on our own origin.
 * Pure: reads neither the store nor a request beyond the headers it is given.
 */

/** The audiences a token may be bound to; `/` is the whole server. */
export const MCP_RESOURCES = ['/.api/mcp', '/.api/mcp/all', '/.api/mcp/deepsearch'] as const;
export const GRAPHQL_RESOURCE = '/.api/graphql';
export const SERVER_RESOURCE = '/';
const KNOWN = new Set<string>([SERVER_RESOURCE, GRAPHQL_RESOURCE, ...MCP_RESOURCES]);

/**
 * The origin users reach us at: the site's `externalURL` when set, else the request's Host (https
 * when a proxy in front said so). Issuer, redirects and audiences are all built on it.
 */
export function siteOrigin(headers: Readonly<Record<string, string | undefined>>, externalURL: string): string {
  if (externalURL !== '') return new URL(externalURL).origin;
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https' ? 'https' : 'http';
  const host = (headers['host'] ?? '').trim();
  try {
    return /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? new URL(`${proto}://${host}`).origin : `${proto}://localhost`;
  } catch {
    return `${proto}://localhost`;
  }
}

/** Whether responses to this request travel over TLS as far as we can tell: cookies then get Secure. */
export function overTls(headers: Readonly<Record<string, string | undefined>>, externalURL: string): boolean {
  return externalURL.startsWith('https:') || headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * The audience path a `resource` URL names on our origin, compared as mcp-auth §3.3 asks (no
 * fragment or query, one trailing slash ignored, scheme and host in any case); null when it names
 * anything else. An absent resource is the whole server.
 */
export function audienceOf(resource: string | null, origin: string): string | null {
  if (resource === null) return SERVER_RESOURCE;
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  const path = url.pathname === '/' ? '/' : url.pathname.replace(/\/$/, '');
  return KNOWN.has(path) ? path : null;
}

/** The URL of an audience path, as metadata and introspection show it. */
export function resourceUrl(origin: string, audience: string): string {
  return audience === SERVER_RESOURCE ? origin : `${origin}${audience}`;
}
