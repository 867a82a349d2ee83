import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { ensureInitialAdmin } from '../../src/store/bootstrap.js';
import type { Store } from '../../src/store/records.js';
import { createAccessToken, findAccessToken, listAccessTokens } from '../../src/store/tokens.js';
import { createUser, getUser, getUserByName, listUsers, setSiteAdmin, verifyPassword } from '../../src/store/users.js';
import { deleteUser } from '../../src/store/deletions.js';
import { useTempStore } from './temp-store.js';

describe('user accounts', () => {
  let store: Store;
  useTempStore((opened) => {
    store = opened;
  });

  it('bootstraps an admin with a sudo token on an empty store, and only then', () => {
    const first = ensureInitialAdmin(store);
    assert.ok(first !== null);
    assert.equal(first.username, 'admin');
    assert.match(first.token, /^sgp_local_[0-9a-f]{40}$/);
    const admin = getUserByName(store, 'admin');
    assert.equal(admin?.siteAdmin, true);
    assert.deepEqual(findAccessToken(store, first.token)?.scopes, ['site-admin:sudo', 'user:all']);
    assert.equal(ensureInitialAdmin(store), null);
  });

  it('creates users with increasing ids and finds them by id and by name regardless of case', () => {
    const alice = createUser(store, { username: 'Alice', email: 'alice@example.com', displayName: 'Alice A.', password: 'pw-alice' });
    const bob = createUser(store, { username: 'bob.smith-2' });
    assert.ok(bob.id > alice.id);
    assert.equal(getUser(store, alice.id)?.username, 'Alice');
    assert.equal(getUserByName(store, 'alice')?.id, alice.id);
    assert.equal(alice.displayName, 'Alice A.');
    assert.equal(bob.email, null);
    assert.equal(bob.passwordHash, null);
    assert.match(alice.passwordHash ?? '', /^scrypt\$/);
    assert.ok(!(alice.passwordHash ?? '').includes('pw-alice'));
    assert.deepEqual(listUsers(store).map((u) => u.username), ['admin', 'Alice', 'bob.smith-2']);
  });

  it('refuses bad usernames, duplicates (any case), bad emails and passwords for service accounts', () => {
    for (const username of ['', '-lead', 'trail.', 'sp ace', 'x'.repeat(256), 'a/b']) {
      assert.throws(() => createUser(store, { username }), (e) => isQuarryError(e, 'INVALID_ARGUMENT') && /invalid username/.test(e.message), username);
    }
    assert.ok(createUser(store, { username: 'y'.repeat(255) }));
    assert.throws(() => createUser(store, { username: 'ALICE' }), (e) => isQuarryError(e, 'USER_EXISTS') && e.message === 'a user named "ALICE" already exists');
    assert.throws(() => createUser(store, { username: 'carol', email: 'not-an-email' }), (e) => isQuarryError(e, 'INVALID_ARGUMENT'));
    assert.throws(() => createUser(store, { username: 'svc', serviceAccount: true, password: 'x' }), (e) => isQuarryError(e, 'INVALID_ARGUMENT'));
  });

  it('verifies passwords; service accounts and password-less users never sign in', async () => {
    assert.equal((await verifyPassword(store, 'alice', 'pw-alice'))?.username, 'Alice');
    assert.equal(await verifyPassword(store, 'alice', 'pw-alicE'), null);
    assert.equal(await verifyPassword(store, 'alice', ''), null);
    assert.equal(await verifyPassword(store, 'bob.smith-2', ''), null);
    assert.equal(await verifyPassword(store, 'nobody', 'pw-alice'), null);
    createUser(store, { username: 'robot', serviceAccount: true });
    assert.equal(await verifyPassword(store, 'robot', ''), null);
  });

  it('guards the last site admin and deletes users with their tokens', () => {
    const admin = getUserByName(store, 'admin');
    const alice = getUserByName(store, 'alice');
    assert.ok(admin && alice);
    assert.throws(() => setSiteAdmin(store, admin.id, false), (e) => isQuarryError(e, 'INVALID_ARGUMENT') && /only site admin/.test(e.message));
    assert.throws(() => deleteUser(store, admin.id), (e) => isQuarryError(e, 'INVALID_ARGUMENT'));
    assert.equal(setSiteAdmin(store, alice.id, true).siteAdmin, true);
    assert.equal(setSiteAdmin(store, admin.id, false).siteAdmin, false);

    const { token } = createAccessToken(store, { userId: alice.id, creatorId: alice.id, scopes: ['user:all'], note: '' });
    setSiteAdmin(store, admin.id, true);
    assert.equal(deleteUser(store, alice.id)?.username, 'Alice');
    assert.equal(getUserByName(store, 'alice'), undefined);
    assert.equal(findAccessToken(store, token), undefined);
    assert.deepEqual(listAccessTokens(store, alice.id), []);
    assert.equal(deleteUser(store, alice.id), undefined);
    assert.ok(createUser(store, { username: 'alice' }).id > alice.id, 'ids are never reused');
  });
});
