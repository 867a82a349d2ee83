/**
 * The repository-read capability a principal carries: site admins read everything, anonymous
 * callers public repositories only, users those whose restriction names them or one of their roles.
 * The restrictions themselves are data in store/repo-permissions.ts.
 */
import type { Store } from '../store/records.js';
import { repoVisibility } from '../store/repo-permissions.js';
import type { Identity, Principal } from './principal.js';

const EVERYTHING = (): boolean => true;

/** The `canRead` of one identity; it reads restrictions as they are at each call, so a change applies at once. */
export function repoAccess(store: Store, identity: Identity): (repo: string) => boolean {
  if (identity.siteAdmin) return EVERYTHING;
  const userId = identity.userId;
  // Made on the first restricted repository: most callers of most requests never meet one.
  let roles: ReadonlySet<string> | null = null;
  return (repo) => {
    const visibility = repoVisibility(store, repo);
    if (visibility.public) return true;
    if (userId === null) return false;
    roles ??= new Set(identity.roles);
    return visibility.users.includes(userId) || visibility.roles.some((r) => roles!.has(r));
  };
}

/** The identity as a principal, carrying its repository access. */
export function withRepoAccess(store: Store, identity: Identity): Principal {
  return { ...identity, canRead: repoAccess(store, identity) };
}
