/**
 * OAuth applications and a person's authorized applications as the doors (pages, GraphQL, the
 * `quarry oauth-apps` command) see them: plain data and one interface, implemented over the store
 * by auth/oauth/applications.ts. Authorization is decided by the doors; these only act.
 */

export interface OAuthApplicationInfo {
  /** `sgo_cid_…`. */
  readonly clientId: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly string[];
  /** Holds a secret (authenticates at the token endpoint), else public (PKCE alone). */
  readonly confidential: boolean;
  /** Registered itself through RFC 7591 rather than made by an admin. */
  readonly dynamic: boolean;
  /** ISO 8601. */
  readonly createdAt: string;
}

export interface NewOAuthApplication {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** `user:all` and/or `mcp`. */
  readonly scopes: readonly string[];
  readonly confidential: boolean;
}

/** An application the user allowed and has not revoked. */
export interface AuthorizedApplicationInfo {
  readonly clientId: string;
  readonly name: string;
  /** ISO 8601, of the most recent grant. */
  readonly lastGrantedAt: string;
  readonly grants: number;
}

export interface OAuthApplicationService {
  list(): readonly OAuthApplicationInfo[];
  get(clientId: string): OAuthApplicationInfo | null;
  /** Throws INVALID_ARGUMENT saying what to change; returns the only plain copy of the secret (null for public applications). */
  create(input: NewOAuthApplication): { readonly application: OAuthApplicationInfo; readonly secret: string | null };
  /** Deletes it with its consents and grants (their tokens stop working); throws INVALID_ARGUMENT when there is none. */
  delete(clientId: string): OAuthApplicationInfo;
  authorizedBy(userId: number): readonly AuthorizedApplicationInfo[];
  /** Revokes every grant of the user to the application and forgets the consent. */
  revokeFor(userId: number, clientId: string): void;
}
