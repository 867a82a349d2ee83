/**
 * The repository-read capability against a real store: restrictions by user and by role, site
 * admins, anonymous callers, restrictions changed while a capability is held, deleted readers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANONYMOUS, type Identity } from '../../src/auth/principal.js';
import { repoAccess, withRepoAccess } from '../../src/auth/repo-access.js';
import { isQuarryError } from '../../src/errors.js';
import type { Store, UserRecord } from '../../src/store/records.js';
import { makeRepoPublic, repoVisibility, restrictRepo } from '../../src/store/repo-permissions.js';
import { addRepo, reserveRepoId } from '../../src/store/repos.js';
import { assignRole, createRole, rolesOf } from '../../src/store/roles.js';
import { deleteRole, deleteUser } from '../../src/store/deletions.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

function identity(store: Store, user: UserRecord): Identity {
  return { ...ANONYMOUS, userId: user.id, username: user.username, siteAdmin: user.siteAdmin, roles: rolesOf(store, user.id) };
}

describe('repository access and restrictions', () => {
  let store: Store;
  let admin: UserRecord;
  let alice: UserRecord;
  let bob: UserRecord;
  let carol: UserRecord;
  useTempStore((opened) => {
    store = opened;
    for (const name of ['org/open', 'org/secret', 'org/team']) {
      addRepo(store, {
        id: reserveRepoId(store), name, source: '/x', mirrorPath: 'm', addedAt: '', lastFetchedAt: null, defaultBranch: 'main', fork: false, archived: false,
      });
    }
    admin = createUser(store, { username: 'root', siteAdmin: true });
    alice = createUser(store, { username: 'alice' });
    bob = createUser(store, { username: 'bob' });
    carol = createUser(store, { username: 'carol' });
    createRole(store, 'team', []);
    assignRole(store, bob.id, 'team');
  });

  const readable = (who: Identity) => ['org/open', 'org/secret', 'org/team'].filter(repoAccess(store, who));

  it('shows each caller only what it may read', () => {
    restrictRepo(store, 'org/secret', { users: [alice.id], roles: [] });
    restrictRepo(store, 'org/team', { users: [], roles: ['team'] });
    assert.deepEqual(repoVisibility(store, 'org/open'), { public: true });
    assert.deepEqual(repoVisibility(store, 'org/team'), { public: false, users: [], roles: ['team'] });
    assert.deepEqual(readable(ANONYMOUS), ['org/open']);
    assert.deepEqual(readable(identity(store, alice)), ['org/open', 'org/secret']);
    assert.deepEqual(readable(identity(store, bob)), ['org/open', 'org/team']);
    assert.deepEqual(readable(identity(store, carol)), ['org/open']);
    assert.deepEqual(readable(identity(store, admin)), ['org/open', 'org/secret', 'org/team']);
  });

  it('reads restrictions at each call, and makes repositories public again', () => {
    const carolCanRead = repoAccess(store, identity(store, carol));
    restrictRepo(store, 'org/secret', { users: [alice.id, carol.id], roles: [] });
    assert.equal(carolCanRead('org/secret'), true);
    assert.equal(makeRepoPublic(store, 'org/secret'), true);
    assert.equal(makeRepoPublic(store, 'org/secret'), false);
    assert.deepEqual(readable(ANONYMOUS), ['org/open', 'org/secret']);
  });

  it('grants USER-role restrictions to every signed-in user but not anonymous callers', () => {
    restrictRepo(store, 'org/open', { users: [], roles: ['USER'] });
    assert.equal(repoAccess(store, identity(store, carol))('org/open'), true);
    assert.equal(repoAccess(store, ANONYMOUS)('org/open'), false);
    makeRepoPublic(store, 'org/open');
  });

  it('keeps a repository restricted when its listed readers are deleted', () => {
    restrictRepo(store, 'org/secret', { users: [carol.id], roles: ['team'] });
    deleteUser(store, carol.id);
    deleteRole(store, 'team');
    assert.deepEqual(repoVisibility(store, 'org/secret'), { public: false, users: [], roles: [] });
    assert.deepEqual(readable(identity(store, bob)), ['org/open']);
  });

  it('is the capability a principal carries', () => {
    restrictRepo(store, 'org/team', { users: [alice.id], roles: [] });
    const alicePrincipal = withRepoAccess(store, identity(store, alice));
    assert.deepEqual(['org/open', 'org/secret', 'org/team'].filter(alicePrincipal.canRead), ['org/open', 'org/team']);
    assert.deepEqual(['org/open', 'org/team'].filter(withRepoAccess(store, ANONYMOUS).canRead), ['org/open']);
    makeRepoPublic(store, 'org/team');
  });

  it('refuses unknown repositories, users and roles', () => {
    assert.throws(() => restrictRepo(store, 'org/none', { users: [], roles: [] }), (e) => isQuarryError(e, 'REPO_NOT_FOUND'));
    assert.throws(() => restrictRepo(store, 'org/open', { users: [999], roles: [] }), (e) => isQuarryError(e, 'USER_NOT_FOUND'));
    assert.throws(() => restrictRepo(store, 'org/open', { users: [], roles: ['ghost'] }), (e) => isQuarryError(e, 'ROLE_NOT_FOUND'));
    assert.deepEqual(repoVisibility(store, 'org/open'), { public: true });
  });
});
