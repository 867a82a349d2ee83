/**
 * User accounts in the instance store: ids never reused, usernames unique regardless of case,
 * passwords kept only as scrypt hashes. Service accounts have no password and cannot sign in.
 */

import { createError } from '../errors.js';
import { takeNextId } from './counters.js';
import type { Store, UserRecord } from './records.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { bumpGeneration, storeGeneration } from './generation.js';

export interface NewUser {
  readonly username: string;
  readonly displayName?: string;
  readonly email?: string;
  readonly password?: string;
  readonly siteAdmin?: boolean;
  readonly serviceAccount?: boolean;
}

const USERNAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const MAX_USERNAME_LENGTH = 255;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function validateUsername(username: string): void {
  if (username.length > MAX_USERNAME_LENGTH || !USERNAME.test(username)) {
    throw createError('INVALID_ARGUMENT',
      `invalid username "${username}": letters, digits, ".", "_" and "-", starting and ending with a letter or digit, at most ${MAX_USERNAME_LENGTH} characters`,
      { username });
  }
}

export function createUser(store: Store, input: NewUser): UserRecord {
  validateUsername(input.username);
  if (input.email !== undefined && !EMAIL.test(input.email)) throw createError('INVALID_ARGUMENT', `invalid email address "${input.email}"`);
  if (input.serviceAccount === true && input.password !== undefined) {
    throw createError('INVALID_ARGUMENT', 'service accounts cannot have a password');
  }
  if (input.password !== undefined && input.password.length === 0) throw createError('INVALID_ARGUMENT', 'the password must not be empty');
  // Hashing is slow; do it before taking the write lock.
  const passwordHash = input.password === undefined ? null : hashPassword(input.password);
  return store.root.transactionSync(() => {
    const key = input.username.toLowerCase();
    if (store.usernames.get(key) !== undefined) {
      throw createError('USER_EXISTS', `a user named "${input.username}" already exists`, { username: input.username });
    }
    const now = new Date().toISOString();
    const user: UserRecord = {
      id: takeNextId(store, 'nextUserId'),
      username: input.username,
      displayName: input.displayName ?? null,
      email: input.email ?? null,
      passwordHash,
      siteAdmin: input.siteAdmin ?? false,
      serviceAccount: input.serviceAccount ?? false,
      createdAt: now,
      updatedAt: now,
    };
    store.users.putSync(user.id, user);
    store.usernames.putSync(key, user.id);
    bumpGeneration(store);
    return user;
  });
}

/**
 * Users read since the store generation last moved: every request of a signed-in caller reads its
 * user (currentUser, roles), and a record only changes with a write that moves the generation.
 */
const recentUsers = new WeakMap<Store, { generation: number; byId: Map<number, UserRecord | undefined> }>();
const RECENT_USERS_MAX = 10_000;

export function getUser(store: Store, id: number): UserRecord | undefined {
  const generation = storeGeneration(store);
  let recent = recentUsers.get(store);
  if (recent === undefined || recent.generation !== generation) {
    recent = { generation, byId: new Map() };
    recentUsers.set(store, recent);
  }
  if (recent.byId.has(id)) return recent.byId.get(id);
  const user = store.users.get(id);
  if (recent.byId.size >= RECENT_USERS_MAX) recent.byId.clear();
  recent.byId.set(id, user);
  return user;
}

/** Case-insensitive, as usernames are unique regardless of case; a name no user can have is not found. */
export function getUserByName(store: Store, username: string): UserRecord | undefined {
  if (username.length > MAX_USERNAME_LENGTH) return undefined;
  const id = store.usernames.get(username.toLowerCase());
  return id === undefined ? undefined : getUser(store, id);
}

/** Every user, ordered by id. */
export function listUsers(store: Store): UserRecord[] {
  return Array.from(store.users.getRange(), ({ value }) => value);
}

function countOtherSiteAdmins(store: Store, id: number): number {
  return listUsers(store).filter((u) => u.siteAdmin && u.id !== id).length;
}

/** Refuses to delete or demote the only site admin, which would leave the instance without one. */
export function refuseLastSiteAdmin(store: Store, user: UserRecord, action: string): void {
  if (user.siteAdmin && countOtherSiteAdmins(store, user.id) === 0) {
    throw createError('INVALID_ARGUMENT', `cannot ${action} ${user.username}: it is the only site admin`, { username: user.username });
  }
}

/** Grants or withdraws site admin; the last site admin cannot be demoted. */
export function setSiteAdmin(store: Store, id: number, siteAdmin: boolean): UserRecord {
  return store.root.transactionSync(() => {
    const user = store.users.get(id);
    if (user === undefined) throw createError('USER_NOT_FOUND', `no user with id ${id}`, { id });
    if (!siteAdmin) refuseLastSiteAdmin(store, user, 'demote');
    const updated: UserRecord = { ...user, siteAdmin, updatedAt: new Date().toISOString() };
    store.users.putSync(id, updated);
    bumpGeneration(store);
    return updated;
  });
}

/**
 * The user when `password` is theirs, else null. Unknown users, service accounts and accounts
 * without a password take as long to refuse as a wrong password.
 */
export async function verifyPassword(store: Store, username: string, password: string): Promise<UserRecord | null> {
  const user = getUserByName(store, username);
  const usable = user !== undefined && !user.serviceAccount ? user.passwordHash : null;
  const matches = await passwordMatches(usable, password);
  return matches && user !== undefined ? user : null;
}
