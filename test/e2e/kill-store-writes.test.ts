/**
 * Crash safety of the instance store: `quarry tokens create` and `quarry config set` killed with
 * SIGKILL at delays spread over their whole run lose nothing committed: every token printed still
 * authenticates against a real server, the site configuration is exactly one of its two
 * revisions, and the next command works without a manual step.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { killDuring, quarry } from './cli-process.js';
import { startServerProcess } from './server-process.js';

const TOKEN = /sgp_local_[0-9a-f]{40}/;
let data = '';

/** How long a whole run takes here, so kills can be spread over all of it. */
function runMs(args: readonly string[]): number {
  const started = performance.now();
  const r = quarry(data, args);
  assert.equal(r.status, 0, r.stderr);
  return performance.now() - started;
}

const SPREAD = [0.2, 0.4, 0.55, 0.7, 0.8, 0.9, 0.95, 1.05];

before(() => {
  data = makeTempDir('quarry-kill-store');
  assert.equal(quarry(data, ['users', 'create', 'alice']).status, 0);
});

after(() => removeDir(data));

test('tokens create killed at any point: every token it printed authenticates; the next create works', async () => {
  const tokens: string[] = [];
  const created = (stdout: string): void => {
    const token = TOKEN.exec(stdout)?.[0];
    if (token) tokens.push(token);
  };
  created(quarry(data, ['tokens', 'create', 'alice', '--note', 'before']).stdout);
  const full = runMs(['tokens', 'create', 'alice', '--note', 'timing']);
  let killedMidway = 0;
  for (const [i, fraction] of SPREAD.entries()) {
    const run = await killDuring(data, ['tokens', 'create', 'alice', '--note', `killed ${i}`], Math.round(full * fraction));
    created(run.stdout);
    if (!run.finished) killedMidway++;
  }
  assert.ok(killedMidway >= 3, `only ${killedMidway} runs were killed before they finished`);
  const next = quarry(data, ['tokens', 'create', 'alice', '--note', 'after']);
  assert.equal(next.status, 0, next.stderr);
  created(next.stdout);

  const server = await startServerProcess(data);
  try {
    for (const token of tokens) {
      const response = await fetch(`${server.url}/.api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `token ${token}` },
        body: JSON.stringify({ query: '{ currentUser { username } }' }),
      });
      const text = await response.text();
      assert.equal(response.status, 200, `${token.slice(0, 14)}…: ${text}`);
      assert.equal((JSON.parse(text) as { data: { currentUser: { username: string } } }).data.currentUser.username, 'alice');
    }
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('config set killed at any point leaves exactly one of the two revisions; the next set works', async () => {
  const first = join(data, 'first.jsonc');
  const second = join(data, 'second.jsonc');
  writeFileSync(first, '{\n  "repos.syncIntervalSeconds": 600,\n}\n');
  writeFileSync(second, '// changed\n{\n  "repos.syncIntervalSeconds": 1234,\n  "search.limits.maxResults": 77,\n}\n');
  const contents = (): string => {
    const got = quarry(data, ['config', 'get']);
    assert.equal(got.status, 0, got.stderr);
    return got.stdout;
  };
  const full = runMs(['config', 'set', first]);
  const texts = new Map([[first, contents()]]);
  runMs(['config', 'set', second]);
  texts.set(second, contents());
  for (const [i, fraction] of SPREAD.entries()) {
    const target = i % 2 === 0 ? first : second;
    const before = contents();
    await killDuring(data, ['config', 'set', target], Math.round(full * fraction));
    assert.ok([before, texts.get(target)].includes(contents()), `kill ${i} left neither revision`);
  }
  const set = quarry(data, ['config', 'set', first]);
  assert.equal(set.status, 0, set.stderr);
  assert.equal(contents(), texts.get(first));
});
