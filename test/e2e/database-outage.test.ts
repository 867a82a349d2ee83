/**
 * A `quarry serve` process on PostgreSQL while PostgreSQL restarts (stopped for real, started again
 * on the same port and data): requests answer 503 with Retry-After for the outage, promptly (not a
 * hang, not a 500), /healthz says the store is down, and once PostgreSQL is back the same process
 * answers again by itself, with what was changed by another process while it was away.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { BIN } from './cli-process.js';
import { freshRequest } from './fresh-request.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

interface Answer { readonly status: number; readonly retryAfter: string | null; readonly body: string }

/** A bound on each request: an outage must be answered, never waited out. */
const REQUEST_TIMEOUT_MS = 30_000;

type Init = { method?: string; headers?: Record<string, string>; body?: string };

async function ask(server: ServerProcess, path: string, init: Init = {}): Promise<Answer> {
  const response = await freshRequest(`${server.url}${path}`, { ...init, timeoutMs: REQUEST_TIMEOUT_MS });
  const retryAfter = response.headers['retry-after'];
  return { status: response.status, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, body: response.body };
}

const currentUser = (token: string): Init => ({
  method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ currentUser { username } }' }),
});

async function askUntil(server: ServerProcess, path: string, init: Init, done: (answer: Answer) => boolean, what: string): Promise<Answer> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await ask(server, path, init);
    if (done(answer)) return answer;
    if (Date.now() > deadline) assert.fail(`${what}: last answer ${answer.status} ${answer.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a server while its PostgreSQL restarts', { skip: postgresMissing() ?? false }, () => {
  let postgres: PostgresServer;
  let server: ServerProcess;
  let url: string;
  const dirs: string[] = [];
  before(async () => {
    postgres = await startPostgres();
    url = postgres.createDatabase();
    const dir = makeTempDir('quarry-outage-data');
    dirs.push(dir);
    server = await startServerProcess(dir, ['--database', url]);
  });
  after(async () => {
    await server?.stop();
    for (const dir of dirs) removeDir(dir);
    postgres?.stop();
  });

  it('answers 503 with Retry-After while PostgreSQL is down and recovers without a restart', async () => {
    const admin = server.adminToken!;
    assert.equal((await ask(server, '/.api/graphql', currentUser(admin))).status, 200);
    assert.equal((await ask(server, '/healthz')).status, 200);

    postgres.halt();
    let resumed = false;
    try {
      // The server learns of the shutdown from its connections: the first requests may still pass on memory alone.
      const refused = await askUntil(server, '/.api/graphql', currentUser(admin), (a) => a.status !== 200, 'a request refused during the outage');
      assert.equal(refused.status, 503, refused.body);
      assert.ok(Number(refused.retryAfter) >= 1, `Retry-After: ${refused.retryAfter}`);
      for (const [path, init] of [['/.api/graphql', currentUser(admin)], ['/search', {}], ['/.api/search/stream?q=x', {}]] as const) {
        const answer = await ask(server, path, init);
        assert.equal(answer.status, 503, `${path}: ${answer.body}`);
        assert.ok(Number(answer.retryAfter) >= 1, `${path}: Retry-After ${answer.retryAfter}`);
      }
      const health = await ask(server, '/healthz');
      assert.equal(health.status, 503);
      assert.match(health.body, /store/);

      postgres.resume();
      resumed = true;
      // Changed by another process before this server is back: it must show once it is.
      const cliData = makeTempDir('quarry-outage-cli');
      dirs.push(cliData);
      const made = spawnSync(process.execPath, [BIN, 'users', 'create', 'dora', '--data', cliData], { encoding: 'utf8', env: { ...process.env, QUARRY_DATABASE_URL: url } });
      assert.equal(made.status, 0, made.stderr);
    } finally {
      if (!resumed) postgres.resume();
    }
    const back = await askUntil(server, '/.api/graphql', currentUser(admin), (a) => a.status === 200, 'the server answering again after PostgreSQL is back');
    assert.equal(back.status, 200);
    const dora = await ask(server, '/.api/graphql', {
      method: 'POST', headers: { Authorization: `token ${admin}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ user(username: "dora") { username } }' }),
    });
    assert.equal(JSON.parse(dora.body).data.user?.username, 'dora', dora.body);
    assert.equal((await ask(server, '/healthz')).status, 200);
    // Writes work again through the same process.
    const created = await ask(server, '/.api/graphql', {
      method: 'POST', headers: { Authorization: `token ${admin}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'mutation { createUser(username: "erin") { user { username } } }' }),
    });
    assert.equal(created.status, 200, created.body);
    assert.equal(JSON.parse(created.body).data.createUser.user.username, 'erin');
    assert.equal(server.child.exitCode, null, 'the server process never exited');
  });
});
