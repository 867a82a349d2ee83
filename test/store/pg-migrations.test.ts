/**
 * The PostgreSQL schema's migrations: up from an empty database, and up from the previous schema
 * version with a store's data in it (written by the engine of that version's shape: rows, change
 * log, sequence), which the migrated store then reads, replays and writes on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openStoreAt } from '../../src/store/open.js';
import { migrate, readMigrations } from '../../src/store/pg/migrate.js';
import type { Store } from '../../src/store/records.js';
import { createUser, getUserByName } from '../../src/store/users.js';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.js';

describe('PostgreSQL migrations', { skip: postgresMissing() ?? false }, () => {
  let server: PostgresServer;
  const open: Store[] = [];
  before(async () => { server = await startPostgres(); });
  after(async () => {
    for (const store of open) await store.close().catch(() => undefined);
    server?.stop();
  });

  const migrateTo = async (url: string, count: number): Promise<number[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await migrate(client, readMigrations().slice(0, count));
    } finally {
      await client.end();
    }
  };

  it('from empty: every migration once, in order; again: none', async () => {
    const url = server.createDatabase();
    const all = readMigrations();
    assert.ok(all.length >= 2, 'there is a previous version to migrate from');
    assert.deepEqual(all.map((m) => m.version), [...all.map((m) => m.version)].sort((a, b) => a - b));
    assert.deepEqual(await migrateTo(url, all.length), all.map((m) => m.version));
    assert.deepEqual(await migrateTo(url, all.length), []);
    assert.deepEqual(server.query(url, 'SELECT version FROM quarry_schema_migrations ORDER BY version'), all.map((m) => String(m.version)));
  });

  it('from the previous version with data: the data stays, the store opens on it, replays and writes', async () => {
    const url = server.createDatabase();
    const all = readMigrations();
    await migrateTo(url, all.length - 1);
    // A store as the previous version left it: a user, the id counter and the generation, logged as two changes.
    server.query(url, `
      INSERT INTO quarry_store_rows (tbl, key, value, version) VALUES
        ('users', '1', '{"id":1,"username":"olduser","displayName":null,"email":null,"passwordHash":null,"siteAdmin":false,"serviceAccount":false,"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}', 1),
        ('usernames', '"olduser"', '1', 1),
        ('meta', '"nextUserId"', '2', 1),
        ('meta', '"generation"', '2', 2);
      INSERT INTO quarry_store_changes (seq, tbl, key) VALUES
        (1, 'users', '1'), (1, 'usernames', '"olduser"'), (1, 'meta', '"nextUserId"'), (2, 'meta', '"generation"');
      SELECT setval('quarry_store_seq', 2);`);
    const store = await openStoreAt('', url);
    open.push(store);
    assert.deepEqual(server.query(url, 'SELECT version FROM quarry_schema_migrations ORDER BY version'), all.map((m) => String(m.version)));
    assert.equal(getUserByName(store, 'olduser')?.id, 1);
    // Writes continue the old numbering, and a second node replays them from the kept log.
    const other = await openStoreAt('', url);
    open.push(other);
    createUser(store, { username: 'newuser' });
    await store.root.committed();
    await other.root.refresh();
    assert.equal(getUserByName(other, 'newuser')?.id, 2, 'user ids continue from the stored counter');
    assert.deepEqual(server.query(url, "SELECT min(seq) > 2 FROM quarry_store_changes WHERE tbl = 'usernames' AND key = '\"newuser\"'"), ['t']);
  });
});
