/**
 * Turns request headers into a Principal, or the exact 401/403 answer of reference §4.2. Tokens
 * are found by their SHA-256, so no secret is compared byte by byte here; nothing here logs them.
 */

import { getUser, getUserByName } from '../store/users.js';
import type { Store, UserRecord } from '../store/records.js';
import { lookupAccessToken, touchAccessToken, type LiveAccessToken } from '../store/tokens.js';
import { permissionsOfRoles, rolesOfUser } from '../store/roles.js';
import { parseAuthorizationHeader, type Credentials } from './authorization-header.js';
import { ANONYMOUS, type Principal } from './principal.js';
import { storeGeneration } from '../store/generation.js';

export interface AuthFailure {
  readonly status: 401 | 403;
  readonly message: string;
}

export type AuthResult = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly failure: AuthFailure };

export const INVALID_TOKEN = 'Invalid access token.';
export const SUDO_SUBJECT_NOT_ADMIN = 'The subject user of a sudo access token must be a site admin.';
export const SUDO_USER_MISSING = 'Unable to sudo to nonexistent user.';

const SUDO_SCOPE = 'site-admin:sudo';

const fail = (status: 401 | 403, message: string): AuthResult => ({ ok: false, failure: { status, message } });

function principalFor(store: Store, user: UserRecord, token: LiveAccessToken, sudoBy: string | null): Principal {
  const roles = rolesOfUser(store, user);
  return {
    userId: user.id,
    username: user.username,
    siteAdmin: user.siteAdmin,
    serviceAccount: user.serviceAccount,
    scopes: token.scopes,
    roles,
    permissions: permissionsOfRoles(store, roles),
    tokenId: token.id,
    sudoBy,
  };
}

function authenticateToken(store: Store, credentials: Credentials): AuthResult {
  const token = lookupAccessToken(store, credentials.token);
  const owner = token === undefined ? undefined : getUser(store, token.userId);
  if (token === undefined || owner === undefined) return fail(401, INVALID_TOKEN);
  let principal: Principal;
  if (credentials.kind === 'sudo') {
    if (!token.scopes.includes(SUDO_SCOPE)) return fail(401, INVALID_TOKEN);
    if (!owner.siteAdmin) return fail(403, SUDO_SUBJECT_NOT_ADMIN);
    const subject = getUserByName(store, credentials.user);
    if (subject === undefined) return fail(403, SUDO_USER_MISSING);
    principal = principalFor(store, subject, token, owner.username);
  } else {
    principal = principalFor(store, owner, token, null);
  }
  touchAccessToken(store, token.id);
  return { ok: true, principal };
}

/**
 * The authenticator the front doors call once per request. The Authorization header wins over
 * `?token=`; neither (or an empty one) means ANONYMOUS. Results are reused only while the store
 * generation is unchanged, so role changes and revocations apply to the next request.
 */
export function createAuthenticator(store: Store): (headers: Readonly<Record<string, string | undefined>>, query?: URLSearchParams) => AuthResult {
  const recent = new RecentResults(store);
  return (headers, query) => {
    const header = headers['authorization'];
    if (header !== undefined && header.trim() !== '') {
      return recent.get(header, () => {
        const parsed = parseAuthorizationHeader(header);
        return parsed.ok ? authenticateToken(store, parsed.credentials) : fail(401, parsed.message);
      });
    }
    const token = query?.get('token');
    if (token !== undefined && token !== null && token !== '') return recent.get(`?${token}`, () => authenticateToken(store, { kind: 'token', token }));
    return { ok: true, principal: ANONYMOUS };
  };
}

/**
 * The last results per credential, valid while the store generation stands still: any change to
 * users, tokens, roles or settings (from any process) bumps it, so a revocation or role change
 * applies to the very next request. Bounded; held in memory only, never written anywhere.
 */
class RecentResults {
  private readonly results = new Map<string, { readonly generation: number; readonly result: AuthResult }>();

  constructor(private readonly store: Store) {}

  get(credential: string, compute: () => AuthResult): AuthResult {
    const generation = storeGeneration(this.store);
    const hit = this.results.get(credential);
    if (hit && hit.generation === generation) {
      if (hit.result.ok && hit.result.principal.tokenId !== null) touchAccessToken(this.store, hit.result.principal.tokenId);
      return hit.result;
    }
    const result = compute();
    if (this.results.size >= RECENT_LIMIT) this.results.clear();
    this.results.set(credential, { generation, result });
    return result;
  }
}

const RECENT_LIMIT = 10_000;

export function isSiteAdmin(principal: Principal): boolean {
  return principal.siteAdmin;
}

export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.includes(scope);
}

export function hasPermission(principal: Principal, permission: string): boolean {
  return principal.permissions.includes(permission);
}

/** The token rule of GraphQL and the stream API: `user:all` or `site-admin:sudo` (anonymous callers: see policy.ts). */
export function canUseGraphQL(principal: Principal): boolean {
  return principal.userId === null || hasScope(principal, 'user:all') || hasScope(principal, SUDO_SCOPE);
}

export type Authenticator = (headers: Readonly<Record<string, string | undefined>>, query?: URLSearchParams) => AuthResult;
