/**
 * Who is making a request, as every layer below the front doors sees it: plain data resolved once
 * from the Authorization header by auth/authenticate.ts. Anonymous callers are ANONYMOUS.
 */

export interface Principal {
  /** null for anonymous callers. */
  readonly userId: number | null;
  readonly username: string | null;
  readonly siteAdmin: boolean;
  readonly serviceAccount: boolean;
  /** Scopes of the access token used (`user:all`, `mcp`, `site-admin:sudo`); empty when anonymous. */
  readonly scopes: readonly string[];
  /** Role names held, `USER` (every user) and `SITE_ADMINISTRATOR` included. */
  readonly roles: readonly string[];
  /** Permissions granted by those roles, as `NAMESPACE#ACTION` (e.g. `MCP#ACCESS`). */
  readonly permissions: readonly string[];
  /** The token's id, for last-use bookkeeping and revocation checks; null when anonymous. */
  readonly tokenId: number | null;
  /** With token-sudo: the site admin whose token acts as this user. */
  readonly sudoBy: string | null;
}

export const ANONYMOUS: Principal = Object.freeze({
  userId: null, username: null, siteAdmin: false, serviceAccount: false,
  scopes: [], roles: [], permissions: [], tokenId: null, sudoBy: null,
});
