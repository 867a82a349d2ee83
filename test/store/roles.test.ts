import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import type { Store, UserRecord } from '../../src/store/records.js';
import { assignRole, createRole, getRole, listRoles, permissionsOf, removeRole, rolesOf, setRolePermissions } from '../../src/store/roles.js';
import { deleteRole } from '../../src/store/deletions.js';
import { createUser, setSiteAdmin } from '../../src/store/users.js';
import { useTempStore } from './temp-store.js';

describe('roles and permissions', () => {
  let store: Store;
  let admin: UserRecord;
  let user: UserRecord;
  useTempStore((opened) => {
    store = opened;
    admin = createUser(store, { username: 'root', siteAdmin: true });
    user = createUser(store, { username: 'dev' });
  });

  it('gives every user USER with MCP#ACCESS, and site admins SITE_ADMINISTRATOR', () => {
    assert.deepEqual(rolesOf(store, user.id), ['USER']);
    assert.deepEqual(permissionsOf(store, user.id), ['MCP#ACCESS']);
    assert.deepEqual(rolesOf(store, admin.id), ['USER', 'SITE_ADMINISTRATOR']);
    assert.deepEqual(listRoles(store).map((r) => [r.name, r.system]), [['USER', true], ['SITE_ADMINISTRATOR', true]]);
    assert.deepEqual(rolesOf(store, 999), []);
  });

  it('lets USER lose MCP#ACCESS, which a custom role can grant back', () => {
    setRolePermissions(store, 'USER', []);
    assert.deepEqual(permissionsOf(store, user.id), []);
    assert.deepEqual(permissionsOf(store, admin.id), ['MCP#ACCESS']);
    createRole(store, 'agents', ['MCP#ACCESS']);
    assignRole(store, user.id, 'agents');
    assignRole(store, user.id, 'agents');
    assert.deepEqual(rolesOf(store, user.id), ['USER', 'agents']);
    assert.deepEqual(permissionsOf(store, user.id), ['MCP#ACCESS']);
    removeRole(store, user.id, 'agents');
    assert.deepEqual(permissionsOf(store, user.id), []);
    setRolePermissions(store, 'USER', ['MCP#ACCESS']);
    assert.deepEqual(getRole(store, 'USER')?.permissions, ['MCP#ACCESS']);
  });

  it('deletes a custom role from everyone who held it', () => {
    createRole(store, 'readers', []);
    assignRole(store, user.id, 'readers');
    assert.equal(deleteRole(store, 'readers').name, 'readers');
    assert.deepEqual(rolesOf(store, user.id), ['USER']);
    assert.equal(getRole(store, 'readers'), undefined);
  });

  it('follows the site-admin flag and refuses to touch system roles', () => {
    setSiteAdmin(store, user.id, true);
    assert.deepEqual(rolesOf(store, user.id), ['USER', 'SITE_ADMINISTRATOR']);
    setSiteAdmin(store, user.id, false);
    const systemRefusal = (e: unknown) => isQuarryError(e, 'INVALID_ARGUMENT');
    assert.throws(() => assignRole(store, user.id, 'SITE_ADMINISTRATOR'), systemRefusal);
    assert.throws(() => removeRole(store, user.id, 'USER'), systemRefusal);
    assert.throws(() => deleteRole(store, 'USER'), systemRefusal);
    assert.throws(() => setRolePermissions(store, 'SITE_ADMINISTRATOR', []), systemRefusal);
  });

  it('refuses unknown permissions, bad or taken names, unknown roles and users', () => {
    assert.throws(() => createRole(store, 'x', ['REPO#WRITE']), (e) => isQuarryError(e, 'INVALID_ARGUMENT') && /unknown permission "REPO#WRITE"/.test(e.message));
    assert.throws(() => createRole(store, 'bad name', []), (e) => isQuarryError(e, 'INVALID_ARGUMENT'));
    assert.throws(() => createRole(store, 'agents', []), (e) => isQuarryError(e, 'ROLE_EXISTS'));
    assert.throws(() => createRole(store, 'USER', []), (e) => isQuarryError(e, 'ROLE_EXISTS'));
    assert.throws(() => assignRole(store, user.id, 'nope'), (e) => isQuarryError(e, 'ROLE_NOT_FOUND'));
    assert.throws(() => assignRole(store, 999, 'agents'), (e) => isQuarryError(e, 'USER_NOT_FOUND'));
    assert.throws(() => setRolePermissions(store, 'nope', []), (e) => isQuarryError(e, 'ROLE_NOT_FOUND'));
  });
});
