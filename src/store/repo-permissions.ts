/**
 * Repository restrictions, as data: a repository is public unless a restriction lists who may read
 * it (users by id, holders of roles by name). Who may read what is auth/repo-access.ts's question.
 */

import { createError } from '../errors.js';
import type { RepoRestriction, Store } from './records.js';
import { getRepo, isStorableRepoName } from './repos.js';
import { getRole } from './roles.js';
import { getUser } from './users.js';
import { bumpGeneration } from './generation.js';

export type RepoVisibility = { readonly public: true } | { readonly public: false; readonly users: readonly number[]; readonly roles: readonly string[] };

/** Restricts `repo` to the listed users and roles (both may be empty: site admins only). */
export function restrictRepo(store: Store, repo: string, readers: { users: readonly number[]; roles: readonly string[] }): RepoRestriction {
  return store.root.transactionSync(() => {
    if (getRepo(store, repo) === undefined) throw createError('REPO_NOT_FOUND', `no such repository: ${repo}`, { name: repo });
    for (const id of readers.users) {
      if (getUser(store, id) === undefined) throw createError('USER_NOT_FOUND', `no user with id ${id}`, { id });
    }
    for (const role of readers.roles) {
      if (getRole(store, role) === undefined) throw createError('ROLE_NOT_FOUND', `no role named "${role}"`, { name: role });
    }
    const restriction: RepoRestriction = {
      repo,
      users: [...new Set(readers.users)].sort((a, b) => a - b),
      roles: [...new Set(readers.roles)].sort(),
      updatedAt: new Date().toISOString(),
    };
    store.repoRestrictions.putSync(repo, restriction);
    bumpGeneration(store);
    return restriction;
  });
}

/** Lifts any restriction; true when there was one. */
export function makeRepoPublic(store: Store, repo: string): boolean {
  return store.root.transactionSync(() => {
    const removed = store.repoRestrictions.removeSync(repo);
    bumpGeneration(store);
    return removed;
  });
}

// One object for every public answer: repository access asks for each repository a search meets.
const PUBLIC: RepoVisibility = Object.freeze({ public: true });

export function repoVisibility(store: Store, repo: string): RepoVisibility {
  const restriction = isStorableRepoName(repo) ? store.repoRestrictions.get(repo) : undefined;
  return restriction === undefined ? PUBLIC : { public: false, users: restriction.users, roles: restriction.roles };
}

/** Drops a deleted user or role from every restriction; call inside the deleting transaction. */
export function removeFromRestrictions(store: Store, gone: { userId: number } | { role: string }): void {
  for (const { key, value } of store.repoRestrictions.getRange()) {
    const users = 'userId' in gone ? value.users.filter((u) => u !== gone.userId) : value.users;
    const roles = 'role' in gone ? value.roles.filter((r) => r !== gone.role) : value.roles;
    if (users.length !== value.users.length || roles.length !== value.roles.length) {
      store.repoRestrictions.putSync(key, { ...value, users, roles });
      bumpGeneration(store);
    }
  }
}
