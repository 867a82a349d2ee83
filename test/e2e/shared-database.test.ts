/**
 * Two `quarry serve` processes sharing one PostgreSQL (`--database`), each with its own data
 * directory: an account's token made through the first works on the second, and once revoked
 * through the first the second refuses it; the account commands given QUARRY_DATABASE_URL change
 * what the servers read. Skipped, saying why, without PostgreSQL's binaries.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { BIN } from './cli-process.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

async function graphql(server: ServerProcess, token: string, query: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** Asks again (NOTIFY reaches the other server within milliseconds; this allows it five seconds) until `done`. */
async function askUntil(ask: () => Promise<{ status: number; body: any }>, done: (answer: { status: number; body: any }) => boolean): Promise<{ status: number; body: any }> {
  let answer = await ask();
  for (let i = 0; i < 100 && !done(answer); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
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

    const seen = await askUntil(() => graphql(second, token, '{ currentUser { username } }'), (a) => a.status === 200);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.data.currentUser.username, me.body.data.currentUser.username);

    const revoked = await graphql(first, first.adminToken!, `mutation { deleteAccessToken(byID: "${id}") { alwaysNil } }`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await graphql(first, token, '{ currentUser { username } }')).status, 401);
    const refused = await askUntil(() => graphql(second, token, '{ currentUser { username } }'), (a) => a.status === 401);
    assert.equal(refused.status, 401, 'the second server refuses the revoked token');

    const cliData = makeTempDir('quarry-shared-cli');
    dirs.push(cliData);
    const cli = spawnSync(process.execPath, [BIN, 'users', 'create', 'carol', '--data', cliData], {
      encoding: 'utf8', env: { ...process.env, QUARRY_DATABASE_URL: url },
    });
    assert.equal(cli.status, 0, cli.stderr);
    const carol = await askUntil(() => graphql(second, first.adminToken!, '{ user(username: "carol") { username } }'), (a) => a.body?.data?.user !== null);
    assert.equal(carol.body.data.user?.username, 'carol', JSON.stringify(carol.body));
  });
});
