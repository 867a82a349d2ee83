/**
 * Two `quarry serve` processes on one PostgreSQL: what is revoked through one (a token, a role and
 * with it a permission, a whole user) is refused by the other on its very next request. No retry,
 * no wait: the other server catches up with the change log before it authenticates. Repeated, so
 * a server that merely catches up soon (on NOTIFY) would be caught out by the race.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { BIN } from './cli-process.js';
import { freshRequest } from './fresh-request.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

interface Answer { readonly status: number; readonly body: any }

async function graphql(server: ServerProcess, token: string, query: string): Promise<Answer> {
  const response = await freshRequest(`${server.url}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }),
  });
  let body: any = null;
  try {
    body = JSON.parse(response.body);
  } catch {
    // Not JSON: the status says enough.
  }
  return { status: response.status, body };
}

async function listTools(server: ServerProcess, token: string): Promise<number> {
  const response = await freshRequest(`${server.url}/.api/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return response.status;
}

const ROUNDS = 12;

describe('revocation on two servers sharing PostgreSQL', { skip: postgresMissing() ?? false }, () => {
  let postgres: PostgresServer;
  let url: string;
  let first: ServerProcess;
  let second: ServerProcess;
  let admin: string;
  const dirs: string[] = [];
  const cli = (args: string[]): string => {
    const data = makeTempDir('quarry-revoke-cli');
    dirs.push(data);
    const run = spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8', env: { ...process.env, QUARRY_DATABASE_URL: url } });
    assert.equal(run.status, 0, `quarry ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };
  const serve = async (): Promise<ServerProcess> => {
    const dir = makeTempDir('quarry-revoke-data');
    dirs.push(dir);
    return startServerProcess(dir, ['--database', url]);
  };

  before(async () => {
    postgres = await startPostgres();
    url = postgres.createDatabase();
    first = await serve();
    second = await serve();
    admin = first.adminToken!;
  });
  after(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    for (const dir of dirs) removeDir(dir);
    postgres?.stop();
  });

  it('a token revoked through one server is refused by the other on the next request, every time', async () => {
    const me = await graphql(first, admin, '{ currentUser { id } }');
    const adminId: string = me.body.data.currentUser.id;
    for (let round = 0; round < ROUNDS; round++) {
      const made = await graphql(first, admin, `mutation { createAccessToken(user: "${adminId}", scopes: ["user:all"], note: "round ${round}") { id token } }`);
      const { id, token } = made.body.data.createAccessToken as { id: string; token: string };
      assert.equal((await graphql(second, token, '{ currentUser { id } }')).status, 200, `round ${round}: a token made through the first works on the second at once`);
      const revoked = await graphql(first, admin, `mutation { deleteAccessToken(byID: "${id}") { alwaysNil } }`);
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal((await graphql(second, token, '{ currentUser { id } }')).status, 401, `round ${round}: the second refuses the revoked token on its next request`);
    }
  });

  it('a permission withdrawn through one server (its role removed) is refused by the other on the next request', async () => {
    cli(['users', 'create', 'bob']);
    cli(['roles', 'set', 'USER', '--permissions', '']);
    cli(['roles', 'create', 'agents', '--permissions', 'MCP#ACCESS']);
    const bob = cli(['tokens', 'create', 'bob', '--scopes', 'user:all,mcp']);
    const bobId: string = (await graphql(first, admin, '{ user(username: "bob") { id } }')).body.data.user.id;
    const roles = await graphql(first, admin, '{ roles { nodes { id name } } }');
    const agents: string = roles.body.data.roles.nodes.find((r: { name: string }) => r.name === 'agents').id;
    for (let round = 0; round < ROUNDS / 2; round++) {
      const assigned = await graphql(first, admin, `mutation { assignRoleToUser(user: "${bobId}", role: "${agents}") { alwaysNil } }`);
      assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
      assert.equal(await listTools(second, bob), 200, `round ${round}: the role granted through the first lets bob in on the second`);
      const removed = await graphql(first, admin, `mutation { removeRoleFromUser(user: "${bobId}", role: "${agents}") { alwaysNil } }`);
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal(await listTools(second, bob), 403, `round ${round}: without MCP#ACCESS bob is refused by the second on its next request`);
    }
  });

  it('a user deleted through one server is refused by the other on the next request', async () => {
    cli(['users', 'create', 'carol']);
    const carol = cli(['tokens', 'create', 'carol', '--scopes', 'user:all']);
    assert.equal((await graphql(second, carol, '{ currentUser { username } }')).body.data.currentUser.username, 'carol');
    const carolId: string = (await graphql(first, admin, '{ user(username: "carol") { id } }')).body.data.user.id;
    const deleted = await graphql(first, admin, `mutation { deleteUser(user: "${carolId}", hard: true) { alwaysNil } }`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await graphql(second, carol, '{ currentUser { username } }')).status, 401, 'the deleted user\'s token is refused by the second');
  });
});
