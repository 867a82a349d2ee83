/**
 * Who is making a request, as every layer below the edge sees it: who they are (plain data, from
 * auth/authenticate.ts) and the repository access they carry; and what authentication made of a
 * request's credentials, resolved once per request at the edge. Decides nothing (authorize.ts does).
 */

export interface Identity {
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
  /** The token's id, for last-use bookkeeping and per-caller limits; an OAuth token's grant family has a negative one; null when anonymous. */
  readonly tokenId: number | null;
  /** With token-sudo: the site admin whose token acts as this user. */
  readonly sudoBy: string | null;
  /**
   * The resource (RFC 8707) an OAuth token was issued for, as a path on this server (`/` is all
   * of it); null for access tokens, which hold wherever their scopes do.
   */
  readonly audience: string | null;
}

export interface Principal extends Identity {
  /**
   * The capability to read repositories: whether this caller may read `repo`. The repository
   * layer asks it on every read; it reads the restrictions as they are at each question.
   */
  readonly canRead: (repo: string) => boolean;
}

export const ANONYMOUS: Identity = Object.freeze({
  userId: null, username: null, siteAdmin: false, serviceAccount: false,
  scopes: [], roles: [], permissions: [], tokenId: null, sudoBy: null, audience: null,
});

export interface AuthFailure {
  readonly status: 401 | 403;
  readonly message: string;
}

/** Where a request's credentials came from: the Authorization header wins over `?token=`, which wins over the sign-in session cookie. */
export type CredentialSource = 'none' | 'header' | 'query' | 'session';

interface Presented {
  readonly via: CredentialSource;
  /** The credential is the operator's metrics scrape token (QUARRY_METRICS_TOKEN), not an access token. */
  readonly scrapeToken: boolean;
}

/** A request's credentials as authentication found them: the principal they name, or why not. */
export type Authentication =
  | (Presented & { readonly ok: true; readonly principal: Principal })
  | (Presented & { readonly ok: false; readonly failure: AuthFailure });
