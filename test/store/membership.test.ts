/**
 * Cluster membership on a real PostgreSQL: a heartbeat registers a member and renews its lease, a
 * member whose lease ran out is dead (by the database's clock), leaving ends the lease at once, and
 * a reader without a self registers nothing, and a member's state (warming, active) is kept. Skipped, saying why, without PostgreSQL's binaries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMigrations } from '../../src/store/pg/migrate.js';
import { openMembership } from '../../src/store/pg/membership.js';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cluster membership in PostgreSQL', { skip: postgresMissing() ?? false }, () => {
  let postgres: PostgresServer;
  before(async () => { postgres = await startPostgres(); });
  after(() => postgres?.stop());

  it('keeps a member alive while it beats, and dead once its lease runs out or it leaves', async () => {
    const url = postgres.createDatabase();
    const leaseMs = 1_500;
    const a = await openMembership(url, { id: 'http://127.0.0.2:1', role: 'search', address: 'http://127.0.0.2:1' }, leaseMs);
    const b = await openMembership(url, { id: 'http://127.0.0.3:1', role: 'search', address: 'http://127.0.0.3:1' }, leaseMs);
    const reader = await openMembership(url, null, 0);
    try {
      assert.deepEqual(await reader.members(), [], 'nothing registered before a heartbeat');
      await a.heartbeat();
      await b.heartbeat();
      await reader.heartbeat();
      const both = await reader.members();
      assert.deepEqual(both.map((m) => [m.id, m.role, m.alive]), [['http://127.0.0.2:1', 'search', true], ['http://127.0.0.3:1', 'search', true]]);
      assert.ok(both.every((m) => m.leaseAgeMs >= 0 && m.leaseAgeMs < 60_000));

      // a keeps beating; b stops: past its lease only b is dead.
      const until = Date.now() + leaseMs * 2;
      while (Date.now() < until) {
        await a.heartbeat();
        await sleep(200);
      }
      const later = await reader.members();
      assert.deepEqual(later.map((m) => [m.id, m.alive]), [['http://127.0.0.2:1', true], ['http://127.0.0.3:1', false]]);
      assert.ok(later[1]!.leaseAgeMs >= leaseMs, 'the dead member\'s last heartbeat is older than its lease');

      await a.leave();
      assert.deepEqual((await reader.members()).map((m) => m.alive), [false, false]);
      await a.heartbeat();
      assert.equal((await reader.members())[0]!.alive, true, 'a node that comes back is the same member, alive again');
    } finally {
      await Promise.all([a.close(), b.close(), reader.close()]);
    }
  });

  it('carries a member\'s state: warming as it registers, active once set, kept through heartbeats', async () => {
    const url = postgres.createDatabase();
    const joining = await openMembership(url, { id: 'http://127.0.0.4:1', role: 'search', address: 'http://127.0.0.4:1' }, 5_000, 'warming');
    const reader = await openMembership(url, null, 0);
    try {
      await joining.heartbeat();
      assert.deepEqual((await reader.members()).map((m) => [m.id, m.state]), [['http://127.0.0.4:1', 'warming']]);
      await joining.setState('active');
      assert.deepEqual((await reader.members()).map((m) => m.state), ['active'], 'written at once, not at the next beat');
      await joining.heartbeat();
      assert.deepEqual((await reader.members()).map((m) => m.state), ['active'], 'a heartbeat keeps the state last set');
    } finally {
      await Promise.all([joining.close(), reader.close()]);
    }
  });

  it('migrates a database of the previous version (001 only) up to the membership table, keeping its rows', async () => {
    const url = postgres.createDatabase();
    const first = readMigrations().find((m) => m.version === 1)!;
    postgres.query(url, `CREATE TABLE quarry_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    postgres.query(url, first.sql);
    postgres.query(url, `INSERT INTO quarry_schema_migrations (version, name) VALUES (1, '${first.name}')`);
    postgres.query(url, `INSERT INTO quarry_store_rows (tbl, key, value, version) VALUES ('meta', '"kept"', '1', 1)`);
    const membership = await openMembership(url, { id: 'http://127.0.0.2:1', role: 'frontend', address: 'http://127.0.0.2:1' }, 5_000);
    try {
      await membership.heartbeat();
      assert.deepEqual((await membership.members()).map((m) => [m.role, m.alive]), [['frontend', true]]);
    } finally {
      await membership.close();
    }
    assert.deepEqual(postgres.query(url, 'SELECT version, name FROM quarry_schema_migrations ORDER BY version'), readMigrations().map((m) => `${m.version}|${m.name}`));
    assert.deepEqual(postgres.query(url, 'SELECT key FROM quarry_store_rows'), ['"kept"']);
  });
});
