/**
 * Accounts and the site configuration as the front doors read and change them: plain data and two
 * interfaces, implemented over the instance store by store/account-service.ts.
 */

export interface UserInfo {
  readonly id: number;
  readonly username: string;
  readonly displayName: string | null;
  readonly email: string | null;
  readonly siteAdmin: boolean;
  readonly createdAt: string;
  /** Role names, USER and SITE_ADMINISTRATOR included. */
  readonly roles: readonly string[];
}

export interface AccessTokenInfo {
  readonly id: number;
  readonly userId: number;
  readonly scopes: readonly string[];
  readonly note: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

export interface RoleInfo {
  readonly name: string;
  readonly system: boolean;
  /** `NAMESPACE#ACTION`. */
  readonly permissions: readonly string[];
}

/** Users, tokens and roles. Authorization is decided by the resolvers; these only act. */
export interface AccountService {
  getUser(id: number): UserInfo | null;
  getUserByUsername(username: string): UserInfo | null;
  /** Users sorted by id, optionally filtered by a substring of username or email. */
  listUsers(query?: string): readonly UserInfo[];
  /** A password lets the user sign in on the pages; without one, tokens only. */
  createUser(input: { readonly username: string; readonly email: string | null; readonly password?: string }): UserInfo;
  deleteUser(id: number): void;
  setSiteAdmin(id: number, siteAdmin: boolean): void;
  listAccessTokens(userId: number): readonly AccessTokenInfo[];
  /** Returns the secret, shown once. */
  createAccessToken(input: { readonly userId: number; readonly creatorId: number; readonly scopes: readonly string[]; readonly note: string }): { readonly id: number; readonly token: string };
  findAccessToken(by: { readonly id: number } | { readonly token: string }): AccessTokenInfo | null;
  deleteAccessToken(id: number): void;
  listRoles(): readonly RoleInfo[];
  createRole(name: string, permissions: readonly string[]): RoleInfo;
  deleteRole(name: string): void;
  assignRole(userId: number, role: string): void;
  removeRole(userId: number, role: string): void;
  /** Permissions the user holds through its roles. */
  permissionsOf(userId: number): readonly string[];
}

export interface SiteConfigView {
  /** Revision id, the `lastID` a writer must send back. */
  readonly id: number;
  readonly contents: string;
  readonly validationMessages: readonly string[];
}

export interface ConfigService {
  get(): SiteConfigView;
  /** Refuses a stale lastID or invalid settings by throwing; returns whether a restart is needed. */
  update(lastID: number, input: string): boolean;
}
