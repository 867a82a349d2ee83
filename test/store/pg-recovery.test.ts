/**
 * The PostgreSQL engine after losing its database: while away, writes and refresh() fail at once
 * with STORE_UNAVAILABLE (saying when to retry) and reads keep the last state; once PostgreSQL takes
 * connections again the node reconnects by itself, re-LISTENs, and replays what other nodes
 * committed meanwhile (a snapshot when the log was pruned past it). The log stays bounded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { storeOver } from '../../src/store/open.js';
import { openPgEngine, type PgEngineOptions } from '../../src/store/pg/pg-engine.js';
import type { Store } from '../../src/store/records.js';
import { createAccessToken, findAccessToken, revokeAccessToken } from '../../src/store/tokens.js';
import { createUser, getUserByName } from '../../src/store/users.js';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.js';

async function eventually(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const FAST: PgEngineOptions = { minBackoffMs: 50, maxBackoffMs: 250 };

describe('PostgreSQL engine: outages and the change log', { skip: postgresMissing() ?? false }, () => {
  let server: PostgresServer;
  const open: Store[] = [];
  const openOn = async (url: string, name: string, options: PgEngineOptions = FAST): Promise<Store> => {
    const store = storeOver(name, await openPgEngine(`${url}?application_name=${name}`, options));
    open.push(store);
    return store;
  };
  /** Cuts one node off its database and keeps it off (other nodes keep their sessions); returns how to let it back. */
  const cutOff = (url: string, name: string): (() => void) => {
    const database = new URL(url).pathname.slice(1);
    const admin = url.replace(/\/[^/]+$/, '/postgres');
    server.query(admin, `ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    server.query(admin, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${name}'`);
    return () => server.query(admin, `ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
  };
  before(async () => { server = await startPostgres(); });
  after(async () => {
    for (const store of open) await store.close().catch(() => undefined);
    server?.stop();
  });

  it('a node cut off answers STORE_UNAVAILABLE at once, then reconnects and replays what it missed, without being asked', async () => {
    const url = server.createDatabase();
    const [a, b] = [await openOn(url, 'node_a'), await openOn(url, 'node_b')];
    const dev = createUser(b, { username: 'dev' });
    const { id, token } = createAccessToken(b, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    await b.root.committed();
    await a.root.refresh();
    assert.equal(findAccessToken(a, token)?.id, id);

    const letBack = cutOff(url, 'node_a');
    try {
      await eventually(() => !a.root.available, 'node a noticing its lost connection');
      const started = Date.now();
      await assert.rejects(a.root.refresh(), (error) => isQuarryError(error, 'STORE_UNAVAILABLE') && typeof error.details['retryAfterSeconds'] === 'number' && (error.details['retryAfterSeconds'] as number) >= 1);
      assert.ok(Date.now() - started < 5_000, 'refused at once, not after waiting on the database');
      createUser(a, { username: 'lost' });
      await assert.rejects(a.root.committed(), (error) => isQuarryError(error, 'STORE_UNAVAILABLE'));
      assert.equal(getUserByName(a, 'lost'), undefined, 'a write PostgreSQL never got is not shown');

      // Committed by another node while this one is away: its NOTIFY is never delivered here.
      revokeAccessToken(b, id);
      createUser(b, { username: 'meanwhile' });
      await b.root.committed();
      assert.equal(findAccessToken(a, token)?.id, id, 'the cut-off node still has its last state');
    } finally {
      letBack();
    }
    await eventually(() => a.root.available, 'node a reconnecting');
    // No refresh() asked for: the reconnect itself replays the log.
    assert.equal(findAccessToken(a, token), undefined, 'the revocation made while away holds after the reconnect');
    assert.ok(getUserByName(a, 'meanwhile'));
    // LISTEN again: a change made now reaches the node by NOTIFY alone.
    createUser(b, { username: 'after' });
    await b.root.committed();
    await eventually(() => getUserByName(a, 'after') !== undefined, 'a NOTIFY after the reconnect');
    // And the node writes again.
    createUser(a, { username: 'back' });
    await a.root.committed();
    await b.root.refresh();
    assert.ok(getUserByName(b, 'back'));
  });

  it('the change log keeps only the newest changes, and a node away past them loads a snapshot (removals included)', async () => {
    const url = server.createDatabase();
    const prune = { keepChanges: 10, every: 5 };
    const [a, b] = [await openOn(url, 'prune_a', { ...FAST, prune }), await openOn(url, 'prune_b', { ...FAST, prune })];
    const dev = createUser(b, { username: 'dev' });
    const doomed = createAccessToken(b, { userId: dev.id, creatorId: dev.id, scopes: ['user:all'], note: '' });
    await b.root.committed();
    await a.root.refresh();
    assert.ok(findAccessToken(a, doomed.token));

    const letBack = cutOff(url, 'prune_a');
    try {
      await eventually(() => !a.root.available, 'node a noticing its lost connection');
      revokeAccessToken(b, doomed.id);
      for (let i = 0; i < 60; i++) createUser(b, { username: `user${i}` });
      await b.root.committed();
    } finally {
      letBack();
    }
    const [changes] = server.query(url, 'SELECT count(DISTINCT seq) FROM quarry_store_changes');
    assert.ok(Number(changes) <= prune.keepChanges + prune.every, `the log holds ${changes} changes, not all 60`);
    const [horizon] = server.query(url, 'SELECT pruned_through FROM quarry_store_log_horizon');
    assert.ok(Number(horizon) > 2, `the horizon moved past the changes node a last saw (${horizon})`);

    await eventually(() => a.root.available, 'node a reconnecting');
    assert.equal(findAccessToken(a, doomed.token), undefined, 'a record removed while away is gone after the snapshot');
    for (let i = 0; i < 60; i++) assert.ok(getUserByName(a, `user${i}`), `user${i}`);
    // A node opened now starts from the pruned log as well.
    const c = await openOn(url, 'prune_c', { ...FAST, prune });
    assert.ok(getUserByName(c, 'user59'));
    assert.equal(findAccessToken(c, doomed.token), undefined);
  });

  it('a database that stops answering (its backends frozen) fails the catch-up after its timeout, and the node reconnects', async () => {
    const url = server.createDatabase();
    const a = await openOn(url, 'frozen_a', { ...FAST, catchUpTimeoutMs: 1_000 });
    createUser(a, { username: 'before' });
    await a.root.committed();
    const pids = server.query(url, `SELECT pid FROM pg_stat_activity WHERE application_name = 'frozen_a'`).map(Number);
    assert.equal(pids.length, 2, 'the writer and the listener');
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      await assert.rejects(a.root.refresh(), (error) => isQuarryError(error, 'STORE_UNAVAILABLE') && /did not answer/.test(error.message));
      await eventually(() => a.root.available, 'node reconnecting on new connections');
      await a.root.refresh();
      createUser(a, { username: 'after' });
      await a.root.committed();
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Already gone.
        }
      }
    }
    assert.deepEqual(server.query(url, `SELECT count(*) FROM quarry_store_rows WHERE tbl = 'usernames'`), ['2']);
  });

  it('PostgreSQL restarted under a node: unavailable while down, back by itself once it is up', async () => {
    const url = server.createDatabase();
    const a = await openOn(url, 'restart_a', { minBackoffMs: 100, maxBackoffMs: 1_000 });
    createUser(a, { username: 'before' });
    await a.root.committed();
    server.halt();
    try {
      await eventually(() => !a.root.available, 'node noticing the shutdown');
      await assert.rejects(a.root.refresh(), (error) => isQuarryError(error, 'STORE_UNAVAILABLE'));
      assert.ok(getUserByName(a, 'before'), 'reads keep the last state');
    } finally {
      server.resume();
    }
    await eventually(() => a.root.available, 'node reconnecting after the restart');
    await a.root.refresh();
    createUser(a, { username: 'after' });
    await a.root.committed();
    assert.deepEqual(server.query(url, `SELECT count(*) FROM quarry_store_rows WHERE tbl = 'usernames'`), ['2']);
  });

  it('nodes that start while another writes without pause start, and each sees every write by NOTIFY alone', async () => {
    // A NOTIFY can arrive while a node is still loading its snapshot: a cluster front end died of one at start.
    const url = server.createDatabase();
    const writer = await openOn(url, 'busy_writer');
    let written = 0;
    let writing = true;
    const writes = (async () => {
      while (writing) {
        createUser(writer, { username: `u${written++}` });
        await writer.root.committed();
      }
    })();
    const starters: Store[] = [];
    try {
      for (let i = 0; i < 8; i++) starters.push(await openOn(url, `starter_${i}`));
    } finally {
      writing = false;
      await writes;
    }
    const last = `u${written - 1}`;
    for (const [i, store] of starters.entries()) {
      await eventually(() => getUserByName(store, last) !== undefined, `starter ${i} seeing the last write (${last})`, 10_000);
      for (let n = 0; n < written; n++) assert.ok(getUserByName(store, `u${n}`), `starter ${i} has u${n}`);
    }
  });
});
