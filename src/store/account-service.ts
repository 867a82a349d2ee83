/**
 * The account and configuration services (model/accounts.ts) over the instance store: users,
 * tokens, roles and the site configuration. Authorization is decided by the doors; these only act.
 */
import type { AccessTokenInfo, AccountService, ConfigService, UserInfo } from '../model/accounts.js';
import type { AccessTokenRecord, Store, UserRecord } from './records.js';
import { assignRole, createRole, listRoles, permissionsOf, removeRole, rolesOf } from './roles.js';
import { deleteRole, deleteUser } from './deletions.js';
import { getSiteConfig, updateSiteConfig } from './site-config.js';
import { createAccessToken, findAccessToken, getAccessToken, listAccessTokens, revokeAccessToken } from './tokens.js';
import { createUser, getUser, getUserByName, listUsers, setSiteAdmin } from './users.js';

export function createAccountService(store: Store): AccountService {
  const user = (record: UserRecord | undefined): UserInfo | null => (record ? new StoredUser(store, record) : null);
  const token = (record: AccessTokenRecord | undefined): AccessTokenInfo | null => (record && !record.revoked ? {
    id: record.id, userId: record.userId, scopes: record.scopes, note: record.note, createdAt: record.createdAt, lastUsedAt: record.lastUsedAt,
  } : null);
  const role = (r: { name: string; system: boolean; permissions: readonly string[] }) => ({ name: r.name, system: r.system, permissions: r.permissions });
  return {
    getUser: (id) => user(getUser(store, id)),
    getUserByUsername: (username) => user(getUserByName(store, username)),
    listUsers(query) {
      const needle = query?.toLowerCase();
      return listUsers(store)
        .filter((u) => !needle || u.username.toLowerCase().includes(needle) || (u.email ?? '').toLowerCase().includes(needle))
        .sort((a, b) => a.id - b.id)
        .map((u) => user(u)!);
    },
    createUser: (input) => user(createUser(store, { username: input.username, ...(input.email ? { email: input.email } : {}), ...(input.password ? { password: input.password } : {}) }))!,
    deleteUser: (id) => void deleteUser(store, id),
    setSiteAdmin: (id, siteAdmin) => void setSiteAdmin(store, id, siteAdmin),
    listAccessTokens: (userId) => listAccessTokens(store, userId).filter((t) => !t.revoked).map((t) => token(t)!),
    createAccessToken: (input) => createAccessToken(store, input),
    findAccessToken: (by) => token('id' in by ? getAccessToken(store, by.id) : findAccessToken(store, by.token)),
    deleteAccessToken: (id) => void revokeAccessToken(store, id),
    listRoles: () => listRoles(store).map(role),
    createRole: (name, permissions) => role(createRole(store, name, permissions)),
    deleteRole: (name) => void deleteRole(store, name),
    assignRole: (userId, name) => assignRole(store, userId, name),
    removeRole: (userId, name) => removeRole(store, userId, name),
    permissionsOf: (userId) => permissionsOf(store, userId),
  };
}

export function createConfigService(store: Store): ConfigService {
  return {
    get() {
      const config = getSiteConfig(store);
      return { id: config.id, contents: config.contents, validationMessages: [] };
    },
    update(lastID, input) {
      updateSiteConfig(store, lastID, input);
      return false;
    },
  };
}

/**
 * A user as the services show it. Roles are read when a query asks for them: most ask for a user's
 * name alone. A class, not an object literal with a getter, which V8 builds on its slow path every time.
 */
class StoredUser implements UserInfo {
  readonly id: number;
  readonly username: string;
  readonly displayName: string | null;
  readonly email: string | null;
  readonly siteAdmin: boolean;
  readonly createdAt: string;
  // A private field: no spread or JSON of a user carries the store.
  readonly #store: Store;

  constructor(store: Store, record: UserRecord) {
    this.#store = store;
    this.id = record.id;
    this.username = record.username;
    this.displayName = record.displayName;
    this.email = record.email;
    this.siteAdmin = record.siteAdmin;
    this.createdAt = record.createdAt;
  }

  get roles(): readonly string[] {
    return rolesOf(this.#store, this.id);
  }
}
