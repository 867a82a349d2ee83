/**
 * Who may use which door, decided in this one place: private mode (site setting `auth.public`)
 * and the paths open to everyone, which tokens the Sourcegraph APIs take (reference §4.2), and who
 * may scrape /metrics. The edge and the doors call it; none re-implements it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { canUseGraphQL, INVALID_TOKEN, type AuthFailure, type Authenticator, type AuthResult } from './authenticate.js';
import { presentedCredential } from './credential.js';

export const PRIVATE_MODE = 'Private mode requires authentication.';
export const METRICS_NEED_ADMIN = 'must be site admin';
export const METRICS_NEED_CREDENTIALS = 'Metrics need a site admin access token or the metrics scrape token.';

/**
 * Reachable without credentials on a private instance (a trailing `/*` takes everything below):
 * health checks, OAuth discovery, and the debug console's page and assets, which hold no data
 * (the console asks for a token). Sign-in and the OAuth endpoints join this list when they land.
 */
const OPEN_PATHS: readonly string[] = ['/healthz', '/.well-known/*', '/debug/console', '/debug/console/*'];

/**
 * Doors that answer missing credentials themselves: MCP always requires a token, public instance
 * or not, and its 401 carries the Bearer challenge an MCP client follows to sign in.
 */
const SELF_GUARDED_PATHS: readonly string[] = ['/.api/mcp', '/.api/mcp/*'];

export interface AccessSettings {
  /** Site setting `auth.public`: anonymous callers may use GraphQL and the stream API. */
  readonly public: boolean;
}

const refuse = (status: 401 | 403, message: string): { readonly ok: false; readonly failure: AuthFailure } => ({ ok: false, failure: { status, message } });

function listed(paths: readonly string[], path: string): boolean {
  return paths.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) : path === p));
}

/**
 * The edge's check of every request, before its door: on a private instance a request without
 * credentials reaches only the open paths and the self-guarded doors. Credentials are checked by
 * the door; null lets the request through.
 */
export function privateModeRefusal(request: { readonly path: string; readonly headers: Readonly<Record<string, string>>; readonly query: URLSearchParams }, settings: () => AccessSettings): AuthFailure | null {
  // Cheapest questions first: most requests carry a token, and the settings cost a store read.
  if (presentedCredential(request.headers, request.query).kind !== 'none' || listed(OPEN_PATHS, request.path) || listed(SELF_GUARDED_PATHS, request.path)) return null;
  return settings().public ? null : { status: 401, message: PRIVATE_MODE };
}

/**
 * Sourcegraph's rule for GraphQL and the stream API: anonymous callers only on a public instance;
 * a token without `user:all` (or `site-admin:sudo`), such as an `mcp`-only one, is an invalid one.
 */
export function sourcegraphApiAccess(auth: AuthResult, settings: () => AccessSettings): AuthResult {
  if (!auth.ok) return auth;
  if (auth.principal.userId === null) return settings().public ? auth : refuse(401, PRIVATE_MODE);
  return canUseGraphQL(auth.principal) ? auth : refuse(401, INVALID_TOKEN);
}

/** The authenticator a Sourcegraph API door uses: `authenticate` followed by sourcegraphApiAccess. */
export function forSourcegraphApi(authenticate: Authenticator, settings: () => AccessSettings): Authenticator {
  return (headers, query) => sourcegraphApiAccess(authenticate(headers, query), settings);
}

/**
 * Who may read /metrics, public instance or not: a site admin's token, or the scrape token the
 * operator configured (compared in constant time; never an access token, so it opens nothing else).
 */
export function createMetricsAccess(authenticate: Authenticator, scrapeToken: string | null): (headers: Readonly<Record<string, string>>, query: URLSearchParams) => AuthFailure | null {
  const expected = scrapeToken === null ? null : digest(scrapeToken);
  return (headers, query) => {
    const presented = presentedCredential(headers, query);
    if (presented.kind === 'none') return { status: 401, message: METRICS_NEED_CREDENTIALS };
    if (expected !== null && presented.kind === 'token' && timingSafeEqual(digest(presented.token), expected)) return null;
    const auth = authenticate(headers, query);
    if (!auth.ok) return auth.failure;
    if (!canUseGraphQL(auth.principal)) return { status: 401, message: INVALID_TOKEN };
    return auth.principal.siteAdmin ? null : { status: 403, message: METRICS_NEED_ADMIN };
  };
}

/** Equal-length digests, so timingSafeEqual compares without revealing the secret's length. */
function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
