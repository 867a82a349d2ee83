/**
 * What only the PostgreSQL engine has to do: several processes (here, several engines) on one
 * database see each other's writes (on NOTIFY, and at once through refresh()), a write racing
 * another node's on the same records is refused and this node's copy corrected, migrations apply
 * once, and a lost database fails writes instead of the process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { openStoreAt } from '../../src/store/open.js';
import type { Store } from '../../src/store/records.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { createAccessToken, findAccessToken, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser, getUserByName } from '../../src/store/users.js';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.js';

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PostgreSQL engine across nodes', { skip: postgresMissing() ?? false }, () => {
  let server: PostgresServer;
  const open: Store[] = [];
  const openOn = async (url: string): Promise<Store> => {
    const store = await openStoreAt('', url);
    open.push(store);
    return store;
  };
  before(async () => { server = await startPostgres(); });
  after(async () => {
    for (const store of open) await store.close().catch(() => undefined);
    server?.stop();
  });

  it('a token created on one node works on another, and is refused there once revoked (refresh: at once; NOTIFY: soon)', async () => {
    const url = server.createDatabase();
    const [a, b] = [await openOn(url), await openOn(url)];
    const dev = createUser(a, { username: 'dev' });
    const { id, token } = createAccessToken(a, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    await a.root.flushed;
    await b.root.refresh();
    assert.equal(findAccessToken(b, token)?.id, id);
    revokeAccessToken(a, id);
    await a.root.flushed;
    await b.root.refresh();
    assert.equal(findAccessToken(b, token), undefined);

    const second = createAccessToken(a, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    await eventually(() => findAccessToken(b, second.token) !== undefined);
    revokeAccessToken(a, second.id);
    await eventually(() => findAccessToken(b, second.token) === undefined);
  });

  it('two nodes editing the same records at once: one commits, the other is refused with STORE_CONFLICT and then shows the winner', async () => {
    const url = server.createDatabase();
    const [a, b] = [await openOn(url), await openOn(url)];
    const base = getSiteConfig(a).id;
    assert.equal(getSiteConfig(b).id, base);
    updateSiteConfig(a, base, '{"search.defaultTimeoutSeconds": 11}');
    updateSiteConfig(b, base, '{"search.defaultTimeoutSeconds": 22}');
    const outcomes = await Promise.allSettled([a.root.flushed, b.root.flushed]);
    const winner = outcomes.findIndex((o) => o.status === 'fulfilled');
    const loser = outcomes.findIndex((o) => o.status === 'rejected');
    assert.ok(winner >= 0 && loser >= 0, 'exactly one of the two commits');
    const refusal = outcomes[loser] as PromiseRejectedResult;
    assert.ok(isQuarryError(refusal.reason, 'STORE_CONFLICT'), String(refusal.reason));
    const expected = [11, 22][winner];
    await Promise.all([a.root.refresh(), b.root.refresh()]);
    for (const store of [a, b, await openOn(url)]) {
      assert.equal(getSiteConfig(store).effective.search.defaultTimeoutSeconds, expected);
      assert.equal(getSiteConfig(store).id, base + 1);
    }
  });

  it('migrations run once from empty and not again on the next start', async () => {
    const url = server.createDatabase();
    await openOn(url);
    await openOn(url);
    assert.deepEqual(server.query(url, 'SELECT version, name FROM quarry_schema_migrations ORDER BY version'), ['1|001_store.sql', '2|002_cluster.sql']);
    assert.deepEqual(server.query(url, "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'quarry_store_%'"), ['2']);
  });

  it('a database that cannot be reached at start is STORE_UNAVAILABLE, saying why', async () => {
    await assert.rejects(openStoreAt('', 'postgres://quarry@127.0.0.1:1/quarry'),
      (error) => isQuarryError(error, 'STORE_UNAVAILABLE') && /ECONNREFUSED/.test(error.message));
  });

  it('a write whose database went away is refused with STORE_UNAVAILABLE; the process keeps running', async () => {
    const url = server.createDatabase();
    const store = await openOn(url);
    createUser(store, { username: 'before' });
    await store.root.flushed;
    server.query(url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    createUser(store, { username: 'lost' });
    await assert.rejects(store.root.flushed, (error) => isQuarryError(error, 'STORE_UNAVAILABLE'));
    assert.ok(getUserByName(store, 'before'));
    assert.equal(getUserByName(store, 'lost'), undefined, 'memory no longer shows the write PostgreSQL never got');
  });
});
