/**
 * Deleting a user or a role together with every record that names it (tokens, sessions, OAuth
 * grants, role assignments, repository restrictions), in one transaction. It sits above users.ts, roles.ts, tokens.ts and
 * repo-permissions.ts: those look one another up (a token's owner, a restriction's users and
 * roles), so cascades kept inside them would import one another in a circle.
 */

import { bumpGeneration } from './generation.js';
import type { RoleRecord, Store, UserRecord } from './records.js';
import { deleteGrantsOf } from './oauth-grants.js';
import { removeFromRestrictions } from './repo-permissions.js';
import { requireCustomRole } from './roles.js';
import { deleteSessionsOf } from './sessions.js';
import { deleteTokensOf } from './tokens.js';
import { refuseLastSiteAdmin } from './users.js';

/** Deletes the user with its tokens, role assignments and repository grants; undefined if none. */
export function deleteUser(store: Store, id: number): UserRecord | undefined {
  return store.root.transactionSync(() => {
    const user = store.users.get(id);
    if (user === undefined) return undefined;
    refuseLastSiteAdmin(store, user, 'delete');
    deleteTokensOf(store, id);
    deleteSessionsOf(store, id);
    deleteGrantsOf(store, id);
    store.userRoles.removeSync(id);
    removeFromRestrictions(store, { userId: id });
    store.usernames.removeSync(user.username.toLowerCase());
    store.users.removeSync(id);
    bumpGeneration(store);
    return user;
  });
}

/** Deletes a custom role, unassigning it from every user and every repository restriction. */
export function deleteRole(store: Store, name: string): RoleRecord {
  return store.root.transactionSync(() => {
    const role = requireCustomRole(store, name);
    for (const { key, value } of store.userRoles.getRange()) {
      if (value.includes(name)) store.userRoles.putSync(key, value.filter((r) => r !== name));
    }
    removeFromRestrictions(store, { role: name });
    store.roles.removeSync(name);
    bumpGeneration(store);
    return role;
  });
}
