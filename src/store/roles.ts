/**
 * Roles and their permissions (`NAMESPACE#ACTION`). USER is held by every user and may have its
 * permissions edited; SITE_ADMINISTRATOR is held exactly by site admins and has every permission.
 */

import { createError } from '../errors.js';
import type { RoleRecord, Store, UserRecord } from './records.js';
import { getUser } from './users.js';
import { bumpGeneration } from './generation.js';

export const USER_ROLE = 'USER';
export const SITE_ADMINISTRATOR_ROLE = 'SITE_ADMINISTRATOR';
export const KNOWN_PERMISSIONS: readonly string[] = ['MCP#ACCESS'];
const DEFAULT_USER_PERMISSIONS: readonly string[] = ['MCP#ACCESS'];

const ROLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EPOCH = new Date(0).toISOString();

function validatePermissions(permissions: readonly string[]): string[] {
  for (const permission of permissions) {
    if (!KNOWN_PERMISSIONS.includes(permission)) {
      throw createError('INVALID_ARGUMENT', `unknown permission "${permission}" (known: ${KNOWN_PERMISSIONS.join(', ')})`, { permission });
    }
  }
  return [...new Set(permissions)].sort();
}

function systemRole(store: Store, name: string): RoleRecord | undefined {
  if (name === SITE_ADMINISTRATOR_ROLE) return { name, permissions: KNOWN_PERMISSIONS, system: true, createdAt: EPOCH };
  if (name === USER_ROLE) return store.roles.get(USER_ROLE) ?? { name, permissions: DEFAULT_USER_PERMISSIONS, system: true, createdAt: EPOCH };
  return undefined;
}

export function getRole(store: Store, name: string): RoleRecord | undefined {
  return systemRole(store, name) ?? store.roles.get(name);
}

/** The custom role named `name`; ROLE_NOT_FOUND, or INVALID_ARGUMENT for a system role. */
export function requireCustomRole(store: Store, name: string): RoleRecord {
  const role = getRole(store, name);
  if (role === undefined) throw createError('ROLE_NOT_FOUND', `no role named "${name}"`, { name });
  if (role.system) throw createError('INVALID_ARGUMENT', `${name} is a system role and cannot be assigned, removed or deleted`, { name });
  return role;
}

/** System roles first, then custom roles by name. */
export function listRoles(store: Store): RoleRecord[] {
  const custom = Array.from(store.roles.getRange(), ({ value }) => value).filter((r) => !r.system);
  return [getRole(store, USER_ROLE), getRole(store, SITE_ADMINISTRATOR_ROLE), ...custom].filter((r): r is RoleRecord => r !== undefined);
}

export function createRole(store: Store, name: string, permissions: readonly string[]): RoleRecord {
  if (!ROLE_NAME.test(name)) {
    throw createError('INVALID_ARGUMENT', `invalid role name "${name}": letters, digits, ".", "_" and "-", at most 64 characters`, { name });
  }
  const role: RoleRecord = { name, permissions: validatePermissions(permissions), system: false, createdAt: new Date().toISOString() };
  return store.root.transactionSync(() => {
    if (getRole(store, name) !== undefined) throw createError('ROLE_EXISTS', `a role named "${name}" already exists`, { name });
    store.roles.putSync(name, role);
    bumpGeneration(store);
    return role;
  });
}

/** Replaces a role's permissions; SITE_ADMINISTRATOR always has all of them and cannot be edited. */
export function setRolePermissions(store: Store, name: string, permissions: readonly string[]): RoleRecord {
  if (name === SITE_ADMINISTRATOR_ROLE) throw createError('INVALID_ARGUMENT', `${name} always has every permission and cannot be edited`);
  const validated = validatePermissions(permissions);
  return store.root.transactionSync(() => {
    const role = getRole(store, name);
    if (role === undefined) throw createError('ROLE_NOT_FOUND', `no role named "${name}"`, { name });
    const updated: RoleRecord = { ...role, permissions: validated };
    store.roles.putSync(name, updated);
    bumpGeneration(store);
    return updated;
  });
}

function requireUser(store: Store, userId: number): void {
  if (getUser(store, userId) === undefined) throw createError('USER_NOT_FOUND', `no user with id ${userId}`, { id: userId });
}

export function assignRole(store: Store, userId: number, role: string): void {
  store.root.transactionSync(() => {
    requireUser(store, userId);
    requireCustomRole(store, role);
    const held = store.userRoles.get(userId) ?? [];
    if (!held.includes(role)) store.userRoles.putSync(userId, [...held, role].sort());
    bumpGeneration(store);
  });
}

export function removeRole(store: Store, userId: number, role: string): void {
  store.root.transactionSync(() => {
    requireUser(store, userId);
    requireCustomRole(store, role);
    const held = store.userRoles.get(userId) ?? [];
    store.userRoles.putSync(userId, held.filter((r) => r !== role));
    bumpGeneration(store);
  });
}

/** USER, SITE_ADMINISTRATOR for site admins, then custom roles by name. */
export function rolesOfUser(store: Store, user: UserRecord): string[] {
  const system = user.siteAdmin ? [USER_ROLE, SITE_ADMINISTRATOR_ROLE] : [USER_ROLE];
  return [...system, ...(store.userRoles.get(user.id) ?? [])];
}

/** rolesOfUser by id; empty for unknown users. */
export function rolesOf(store: Store, userId: number): string[] {
  const user = getUser(store, userId);
  return user === undefined ? [] : rolesOfUser(store, user);
}

/** The union of the permissions of the given roles, sorted. */
export function permissionsOfRoles(store: Store, roles: readonly string[]): string[] {
  if (roles.includes(SITE_ADMINISTRATOR_ROLE)) return [...KNOWN_PERMISSIONS].sort();
  const granted = new Set<string>();
  for (const name of roles) for (const p of getRole(store, name)?.permissions ?? []) granted.add(p);
  return [...granted].sort();
}

/** The union of the permissions of every role the user holds, sorted. */
export function permissionsOf(store: Store, userId: number): string[] {
  return permissionsOfRoles(store, rolesOf(store, userId));
}
