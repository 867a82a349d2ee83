/**
 * The store contract: what every engine (LMDB, PostgreSQL) must do, as cases run through the real
 * store modules and the table interface. engine-contract.test.ts runs them against each engine.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { openConversations } from '../../src/store/conversations.js';
import { purgeExpired } from '../../src/store/expiry.js';
import { createOAuthClient, deleteOAuthClient, getOAuthClient } from '../../src/store/oauth-clients.js';
import type { Store } from '../../src/store/records.js';
import { addRepo, reserveRepoId } from '../../src/store/repos.js';
import { makeRepoPublic, repoVisibility, restrictRepo } from '../../src/store/repo-permissions.js';
import { assignRole, createRole, permissionsOf, rolesOf } from '../../src/store/roles.js';
import { createSession, findSession } from '../../src/store/sessions.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { createAccessToken, findAccessToken, getAccessToken, listAccessTokens, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser, getUserByName, listUsers } from '../../src/store/users.js';

/** A fresh, empty database: `open` opens a store on it (each call a new handle on the same data). */
export interface ContractDatabase {
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

interface Reopener {
  /** Waits for the store's writes, closes it, and opens the same database again. */
  reopen(store: Store): Promise<Store>;
}

function addTestRepo(store: Store, name: string): void {
  const at = new Date().toISOString();
  addRepo(store, {
    id: reserveRepoId(store), name, source: `/src/${name}`, mirrorPath: `mirrors/${name}.git`, addedAt: at, lastFetchedAt: null,
    defaultBranch: 'main', fork: false, archived: false,
  });
}

export function storeContract(database: () => Promise<ContractDatabase>): void {
  const withStore = (name: string, body: (store: Store, t: Reopener) => Promise<void> | void): void => {
    it(name, async () => {
      const db = await database();
      const open = new Set<Store>();
      const opened = async (): Promise<Store> => {
        const store = await db.open();
        open.add(store);
        return store;
      };
      const t: Reopener = {
        async reopen(store) {
          await store.root.flushed;
          open.delete(store);
          await store.close();
          return opened();
        },
      };
      try {
        await body(await opened(), t);
      } finally {
        for (const store of open) await store.close();
        await db.dispose();
      }
    });
  };

  withStore('ranges are ordered by key (numbers ascending, strings in order), from a start, reversed, limited', (store) => {
    const numbers = store.root.openDB<string, number>('contractNumbers');
    for (const key of [10, 2, 33, 7]) numbers.putSync(key, `n${key}`);
    assert.deepEqual([...numbers.getRange()].map((e) => e.key), [2, 7, 10, 33]);
    assert.deepEqual([...numbers.getRange({ start: 7 })].map((e) => e.key), [7, 10, 33]);
    assert.deepEqual([...numbers.getRange({ reverse: true, limit: 1 })].map((e) => e.value), ['n33']);
    const strings = store.root.openDB<number, string>('contractStrings');
    for (const key of ['user-code:b', 'a', 'Z', 'user-code:a', 'b']) strings.putSync(key, key.length);
    assert.deepEqual([...strings.getRange()].map((e) => e.key), ['Z', 'a', 'b', 'user-code:a', 'user-code:b']);
    assert.deepEqual([...strings.getRange({ start: 'b' })].map((e) => e.key), ['b', 'user-code:a', 'user-code:b']);
    assert.equal(strings.getKeysCount(), 5);
    assert.equal(strings.removeSync('a'), true);
    assert.equal(strings.removeSync('a'), false);
    assert.equal(strings.getKeysCount(), 4);
  });

  withStore('a get returns a copy: changing it changes nothing stored', (store) => {
    const user = createUser(store, { username: 'copy' });
    const read = store.users.get(user.id) as { displayName: string | null };
    read.displayName = 'changed';
    assert.equal(store.users.get(user.id)?.displayName, null);
  });

  withStore('a transaction that throws leaves nothing behind; a nested one that throws undoes only its own writes', (store) => {
    assert.throws(() => store.root.transactionSync(() => {
      createUser(store, { username: 'ghost' });
      assert.ok(getUserByName(store, 'ghost'), 'reads inside a transaction see its writes');
      throw new Error('abort');
    }), /abort/);
    assert.equal(getUserByName(store, 'ghost'), undefined);
    assert.deepEqual(listUsers(store), []);
    store.root.transactionSync(() => {
      createUser(store, { username: 'kept' });
      assert.throws(() => store.root.transactionSync(() => {
        createUser(store, { username: 'inner' });
        throw new Error('inner abort');
      }));
    });
    assert.deepEqual(listUsers(store).map((u) => u.username), ['kept']);
  });

  withStore('accounts, tokens, roles, permissions, settings, sessions, OAuth clients and conversations survive a reopen', async (store, t) => {
    const admin = createUser(store, { username: 'admin', siteAdmin: true });
    const dev = createUser(store, { username: 'dev' });
    const { token } = createAccessToken(store, { userId: dev.id, creatorId: admin.id, scopes: ['user:all'], note: 'ci' });
    createRole(store, 'READER', ['MCP#ACCESS']);
    assignRole(store, dev.id, 'READER');
    addTestRepo(store, 'secret/repo');
    restrictRepo(store, 'secret/repo', { users: [admin.id], roles: ['READER'] });
    const revision = updateSiteConfig(store, getSiteConfig(store).id, '{"search.defaultTimeoutSeconds": 17}');
    const session = createSession(store, dev.id, 60_000);
    const { client } = createOAuthClient(store, {
      name: 'app', redirectUris: ['http://127.0.0.1/cb'], scopes: ['mcp'], grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none', dynamic: false, serviceAccountId: null, metadata: {}, confidential: false,
    });
    const conversation = openConversations(store).create(dev.id, 'web', 'where is main?');
    const again = await t.reopen(store);
    assert.deepEqual(listUsers(again).map((u) => u.username), ['admin', 'dev']);
    assert.equal(findAccessToken(again, token)?.userId, dev.id);
    assert.deepEqual(rolesOf(again, dev.id), ['USER', 'READER']);
    assert.ok(permissionsOf(again, dev.id).includes('MCP#ACCESS'));
    assert.deepEqual(repoVisibility(again, 'secret/repo'), { public: false, users: [admin.id], roles: ['READER'] });
    assert.equal(getSiteConfig(again).id, revision);
    assert.equal(getSiteConfig(again).effective.search.defaultTimeoutSeconds, 17);
    assert.equal(findSession(again, session)?.userId, dev.id);
    assert.equal(getOAuthClient(again, client.id)?.name, 'app');
    assert.equal(openConversations(again).get(conversation.id)?.questions[0]?.question, 'where is main?');
  });

  withStore('revoking a token, lifting a restriction and deleting a client are seen at once and after a reopen', async (store, t) => {
    const dev = createUser(store, { username: 'dev' });
    const { id, token } = createAccessToken(store, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    addTestRepo(store, 'r');
    restrictRepo(store, 'r', { users: [dev.id], roles: [] });
    const { client } = createOAuthClient(store, {
      name: 'gone', redirectUris: ['http://127.0.0.1/cb'], scopes: ['mcp'], grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none', dynamic: false, serviceAccountId: null, metadata: {}, confidential: false,
    });
    revokeAccessToken(store, id);
    assert.equal(makeRepoPublic(store, 'r'), true);
    deleteOAuthClient(store, client.id);
    assert.equal(findAccessToken(store, token), undefined);
    const again = await t.reopen(store);
    assert.equal(findAccessToken(again, token), undefined);
    assert.equal(getAccessToken(again, id)?.revoked, true);
    assert.deepEqual(listAccessTokens(again, dev.id).map((r) => r.revoked), [true]);
    assert.equal(repoVisibility(again, 'r').public, true);
    assert.equal(getOAuthClient(again, client.id), undefined);
  });

  withStore('a stale site configuration edit is refused and stores nothing', (store) => {
    const first = updateSiteConfig(store, getSiteConfig(store).id, '{}');
    updateSiteConfig(store, first, '{"search.defaultTimeoutSeconds": 3}');
    assert.throws(() => updateSiteConfig(store, first, '{}'), (error) => isQuarryError(error, 'CONFIG_STALE'));
    assert.equal(getSiteConfig(store).effective.search.defaultTimeoutSeconds, 3);
  });

  withStore('the expiry sweep removes expired sessions and keeps live ones', async (store, t) => {
    const dev = createUser(store, { username: 'dev' });
    const now = Date.now();
    const expired = createSession(store, dev.id, 1_000, now - 10_000);
    const live = createSession(store, dev.id, 60_000, now);
    const { removed } = purgeExpired(store, 64, now);
    assert.equal(removed, 1);
    const again = await t.reopen(store);
    assert.equal(findSession(again, expired, now - 20_000), undefined);
    assert.equal(findSession(again, live, now)?.userId, dev.id);
  });
}
