/**
 * First start of an empty instance: creates the `admin` site admin and one token for it, which
 * `quarry serve` prints once. Does nothing once any user exists.
 */

import type { Store } from './records.js';
import { createAccessToken } from './tokens.js';
import { createUser } from './users.js';

export const INITIAL_ADMIN = 'admin';

export function ensureInitialAdmin(store: Store): { username: string; token: string } | null {
  return store.root.transactionSync(() => {
    if (store.users.getKeysCount() > 0) return null;
    const admin = createUser(store, { username: INITIAL_ADMIN, siteAdmin: true });
    const { token } = createAccessToken(store, {
      userId: admin.id, creatorId: admin.id, scopes: ['user:all', 'site-admin:sudo'], note: 'created on first start',
    });
    return { username: admin.username, token };
  });
}
