/**
 * Two `quarry serve` processes sharing one PostgreSQL (`--database`), each with its own data
 * directory: an account's token made through the first works on the second, and once revoked
 * through the first the second refuses it. Skipped, saying why, without PostgreSQL's binaries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

async function graphql(server: ServerProcess, token: string, query: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

describe('two servers on one PostgreSQL', { skip: postgresMissing() ?? false }, () => {
  let postgres: PostgresServer;
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];
  before(async () => { postgres = await startPostgres(); });
  after(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dirs) removeDir(dir);
    postgres?.stop();
  });

  it('a token revoked through one server is refused by the other', async () => {
    const url = postgres.createDatabase();
    const serve = async (): Promise<ServerProcess> => {
      const dir = makeTempDir('quarry-shared-db');
      dirs.push(dir);
      const server = await startServerProcess(dir, ['--database', url]);
      servers.push(server);
      return server;
    };
    const first = await serve();
    assert.ok(first.adminToken, 'the first server on an empty database creates the admin');
    const second = await serve();
    assert.equal(second.adminToken, null, 'the second finds the admin already there');

    const me = await graphql(first, first.adminToken!, '{ currentUser { id username } }');
    const adminId: string = me.body.data.currentUser.id;
    const made = await graphql(first, first.adminToken!, `mutation { createAccessToken(user: "${adminId}", scopes: ["user:all"], note: "shared") { id token } }`);
    const { id, token } = made.body.data.createAccessToken as { id: string; token: string };

    // The second server learns of the new token by NOTIFY: allow it a generous moment.
    let seen = await graphql(second, token, '{ currentUser { username } }');
    for (let i = 0; i < 100 && seen.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await graphql(second, token, '{ currentUser { username } }');
    }
    assert.equal(seen.status, 200);
    assert.equal(seen.body.data.currentUser.username, me.body.data.currentUser.username);

    const revoked = await graphql(first, first.adminToken!, `mutation { deleteAccessToken(byID: "${id}") { alwaysNil } }`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await graphql(first, token, '{ currentUser { username } }')).status, 401);
    let refused = await graphql(second, token, '{ currentUser { username } }');
    for (let i = 0; i < 100 && refused.status !== 401; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refused = await graphql(second, token, '{ currentUser { username } }');
    }
    assert.equal(refused.status, 401, 'the second server refuses the revoked token');
  });
});
