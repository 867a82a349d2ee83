/**
 * Turns a request's credentials into an Authentication: the Principal they name, or the exact 401/403
 * of reference §4.2. The edge calls it once per request. Access tokens and OAuth access tokens are
 * found by their SHA-256 and the scrape token compared in constant time, so no secret is compared
 * byte by byte; nothing here logs them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Store, UserRecord } from '../store/records.js';
import { storeGeneration } from '../store/generation.js';
import { ACCESS_TOKEN_PREFIX, findOAuthToken } from '../store/oauth-grants.js';
import { getSiteConfig } from '../store/site-config.js';
import { permissionsOfRoles, rolesOfUser } from '../store/roles.js';
import { lookupAccessToken, touchAccessToken, type LiveAccessToken } from '../store/tokens.js';
import { getUser, getUserByName } from '../store/users.js';
import { parseAuthorizationHeader, type Credentials } from './authorization-header.js';
import { authorizeSudo, INVALID_TOKEN } from './authorize.js';
import { usableClient } from './oauth/client-auth.js';
import { ANONYMOUS, type Authentication, type CredentialSource, type Principal } from './principal.js';
import { withRepoAccess } from './repo-access.js';
import { presentedSessionId } from './session-cookie.js';
import { findSession } from '../store/sessions.js';

export const SUDO_USER_MISSING = 'Unable to sudo to nonexistent user.';

/** What authentication reads of a request. */
export interface RequestCredentials {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly query?: URLSearchParams;
  /** Without it a session cookie never counts: only reads (or a request no other site can forge) take one. */
  readonly method?: string;
}

export type Authenticator = (request: RequestCredentials) => Authentication;

export interface AuthenticatorOptions {
  /** QUARRY_METRICS_TOKEN: a credential that opens /metrics and nothing else; null or absent when unset. */
  readonly scrapeToken?: string | null;
  /** Whether the request came over TLS (the session cookie then carries the `__Host-` prefix); without it, sessions are not read. */
  readonly overTls?: (headers: Readonly<Record<string, string | undefined>>) => boolean;
}

/** What a token grants: an access token's scopes anywhere, or an OAuth token's on its audience (with its family's number as id). */
type Grant = Pick<LiveAccessToken, 'scopes'> & { readonly id: number | null; readonly audience: string | null };

function principalOf(store: Store, user: UserRecord, token: Grant, sudoBy: string | null): Principal {
  const roles = rolesOfUser(store, user);
  return withRepoAccess(store, {
    userId: user.id,
    username: user.username,
    siteAdmin: user.siteAdmin,
    serviceAccount: user.serviceAccount,
    scopes: token.scopes,
    roles,
    permissions: permissionsOfRoles(store, roles),
    tokenId: token.id,
    sudoBy,
    audience: token.audience,
  });
}

/** An authentication, and until when it may be reused (an OAuth token's expiry). */
interface Timed {
  readonly result: Authentication;
  readonly validUntil: number;
}

type Presentation = { via: CredentialSource; scrapeToken: boolean };

/**
 * An OAuth access token: live (unexpired, its grant unrevoked), of a client that is still usable
 * (a registered client stops with dynamic registration), bound to its audience. It never sudoes.
 */
function authenticateOAuthToken(store: Store, credentials: Credentials, presented: Presentation): Timed {
  const refuse: Timed = { result: { ok: false, failure: { status: 401, message: INVALID_TOKEN }, ...presented }, validUntil: Infinity };
  const found = findOAuthToken(store, credentials.token, 'access');
  if (found === undefined || credentials.kind === 'sudo') return refuse;
  const { record, family } = found;
  const dynamicRegistration = getSiteConfig(store).effective.auth.idpDynamicClientRegistrationEnabled;
  const owner = usableClient(store, record.clientId, dynamicRegistration) === undefined ? undefined : getUser(store, record.userId);
  if (owner === undefined) return refuse;
  const principal = principalOf(store, owner, { id: family.number, scopes: record.scopes, audience: record.resource }, null);
  return { result: { ok: true, principal, ...presented }, validUntil: record.expiresAt };
}

function authenticateToken(store: Store, credentials: Credentials, presented: Presentation): Timed {
  if (credentials.token.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateOAuthToken(store, credentials, presented);
  return { result: authenticateAccessToken(store, credentials, presented), validUntil: Infinity };
}

function authenticateAccessToken(store: Store, credentials: Credentials, presented: Presentation): Authentication {
  const fail = (status: 401 | 403, message: string): Authentication => ({ ok: false, failure: { status, message }, ...presented });
  const token = lookupAccessToken(store, credentials.token);
  const owner = token === undefined ? undefined : getUser(store, token.userId);
  if (token === undefined || owner === undefined) return fail(401, INVALID_TOKEN);
  let principal: Principal;
  if (credentials.kind === 'sudo') {
    const refused = authorizeSudo({ scopes: token.scopes, siteAdmin: owner.siteAdmin, audience: null });
    if (refused !== null) return fail(refused.status, refused.message);
    const subject = getUserByName(store, credentials.user);
    if (subject === undefined) return fail(403, SUDO_USER_MISSING);
    principal = principalOf(store, subject, { ...token, audience: null }, owner.username);
  } else {
    principal = principalOf(store, owner, { ...token, audience: null }, null);
  }
  touchAccessToken(store, token.id);
  return { ok: true, principal, ...presented };
}

/**
 * The Authorization header wins over `?token=`; neither (or an empty one) is the anonymous
 * principal. Results are reused only while the store generation is unchanged, so role changes
 * and revocations apply to the next request.
 */
export function createAuthenticator(store: Store, options: AuthenticatorOptions = {}): Authenticator {
  const recent = new RecentResults(store);
  const scrapeDigest = options.scrapeToken == null ? null : digest(options.scrapeToken);
  const isScrapeToken = (token: string): boolean => scrapeDigest !== null && timingSafeEqual(digest(token), scrapeDigest);
  const anonymous: Authentication = { ok: true, principal: withRepoAccess(store, ANONYMOUS), via: 'none', scrapeToken: false };
  return ({ headers, query, method }) => {
    const header = headers['authorization'];
    if (header !== undefined && header.trim() !== '') {
      return recent.get(header, () => {
        const parsed = parseAuthorizationHeader(header);
        if (!parsed.ok) return { result: { ok: false, failure: { status: 401, message: parsed.message }, via: 'header', scrapeToken: false }, validUntil: Infinity };
        return authenticateToken(store, parsed.credentials, { via: 'header', scrapeToken: isScrapeToken(parsed.credentials.token) });
      });
    }
    const token = query?.get('token');
    if (token === undefined || token === null || token === '') return authenticateSession(store, { headers, query, method }, options.overTls) ?? anonymous;
    return recent.get(`?${token}`, () => authenticateToken(store, { kind: 'token', token }, { via: 'query', scrapeToken: isScrapeToken(token) }));
  };
}

/**
 * The signed-in person of a browser, as the web app's own requests (pages, the stream API, GraphQL)
 * present it: the session cookie acts with `user:all`. A cookie travels with requests other sites
 * start, so it counts only on reads (GET, HEAD) and on requests carrying `X-Requested-With`, a
 * header no other site's page can send here without a CORS preflight this server never grants.
 * Not cached: signing out must end it on the very next request.
 */
function authenticateSession(store: Store, request: RequestCredentials, overTls: AuthenticatorOptions['overTls']): Authentication | null {
  if (overTls === undefined || request.method === undefined) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.headers['x-requested-with'] === undefined) return null;
  const sessionId = presentedSessionId(request.headers, overTls(request.headers));
  const session = sessionId === null ? undefined : findSession(store, sessionId);
  const user = session === undefined ? undefined : getUser(store, session.userId);
  if (user === undefined) return null;
  return { ok: true, principal: principalOf(store, user, { id: null, scopes: [SESSION_SCOPE], audience: null }, null), via: 'session', scrapeToken: false };
}

const SESSION_SCOPE = 'user:all';

/** Equal-length digests, so timingSafeEqual compares without revealing the secret's length. */
function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * The last results per credential, valid while the store generation stands still and the token has
 * not expired: any change to users, tokens, OAuth grants, roles or settings (from any process) bumps
 * it, so a revocation or role change applies to the very next request. Bounded; held in memory
 * only, never written anywhere.
 */
class RecentResults {
  private readonly results = new Map<string, { readonly generation: number; readonly timed: Timed }>();

  constructor(private readonly store: Store) {}

  get(credential: string, compute: () => Timed): Authentication {
    const generation = storeGeneration(this.store);
    const hit = this.results.get(credential);
    if (hit && hit.generation === generation && hit.timed.validUntil > Date.now()) {
      const { result } = hit.timed;
      // OAuth grants have negative ids and no last-use record.
      if (result.ok && result.principal.tokenId !== null && result.principal.tokenId > 0) touchAccessToken(this.store, result.principal.tokenId);
      return result;
    }
    const timed = compute();
    if (this.results.size >= RECENT_LIMIT) this.results.clear();
    this.results.set(credential, { generation, timed });
    return timed.result;
  }
}

const RECENT_LIMIT = 10_000;
