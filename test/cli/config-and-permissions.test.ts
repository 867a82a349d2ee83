import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createSampleRepo, makeTempDir, removeDir } from '../git/fixtures.js';
import { runCli } from './capture.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));

describe('quarry config', () => {
  let root = '';
  let data = '';
  before(() => {
    root = makeTempDir();
    data = join(root, 'data');
  });
  after(() => removeDir(root));

  const cli = (...args: string[]) => runCli([...args, '--data', data]);

  it('gets the initial document, sets a file and refuses stale and invalid writes', async () => {
    const initial = await cli('config', 'get');
    assert.equal(initial.code, 0);
    assert.deepEqual(initial.stderr, ['site configuration revision 0']);
    assert.match(initial.stdout[0] ?? '', /^\/\/ Quarry site configuration/);

    const file = join(root, 'site.jsonc');
    writeFileSync(file, '{\n  // tighter\n  "rateLimits": {"graphQLMaxDepth": 12},\n}\n');
    assert.deepEqual(await cli('config', 'set', file), { code: 0, stdout: ['site configuration is now revision 1'], stderr: [] });
    const got = await cli('config', 'get', '--json');
    const config = JSON.parse(got.stdout.join('\n')) as { id: number; contents: string; effective: { rateLimits: { graphQLMaxDepth: number } } };
    assert.equal(config.id, 1);
    assert.match(config.contents, /\/\/ tighter/);
    assert.equal(config.effective.rateLimits.graphQLMaxDepth, 12);

    const stale = await cli('config', 'set', file, '--last-id', '0');
    assert.equal(stale.code, 1);
    assert.match(stale.stderr[0] ?? '', /changed since revision 0 was read \(the current revision is 1\)/);
    writeFileSync(file, '{"mcp.enabled": yes}');
    assert.deepEqual((await cli('config', 'set', file)).stderr, ['quarry: invalid JSON at 1:17: unexpected "y"']);
    assert.equal((await cli('config', 'set', file, '--last-id', 'one')).code, 2);
  });

  it('reads a document from standard input', () => {
    const run = spawnSync(process.execPath, [BIN, 'config', 'set', '-', '--last-id', '1', '--data', data], { input: '{"mcp.enabled": false}', encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'site configuration is now revision 2\n');
  });
});

describe('quarry repos restrict and public', () => {
  let root = '';
  let data = '';
  const NAME = 'github.com/org/sample';
  before(async () => {
    root = makeTempDir();
    data = join(root, 'data');
    const sample = createSampleRepo(join(root, 'source'));
    assert.equal((await runCli(['repos', 'add', NAME, sample.dir, '--data', data])).code, 0);
    assert.equal((await runCli(['users', 'create', 'alice', '--data', data])).code, 0);
    assert.equal((await runCli(['roles', 'create', 'team', '--permissions', '', '--data', data])).code, 0);
  });
  after(() => removeDir(root));

  const cli = (...args: string[]) => runCli([...args, '--data', data]);

  it('restricts a repository to users and roles, then makes it public', async () => {
    assert.deepEqual(await cli('repos', 'restrict', NAME, '--users', 'alice', '--roles', 'team'),
      { code: 0, stdout: [`${NAME} is now restricted to site admins, user alice, role team`], stderr: [] });
    assert.equal((await cli('repos', 'restrict', NAME)).stdout[0], `${NAME} is now restricted to site admins`);
    assert.equal((await cli('repos', 'public', NAME)).stdout[0], `${NAME} is now public`);
    assert.equal((await cli('repos', 'public', NAME)).stdout[0], `${NAME} was already public`);
  });

  it('refuses unknown repositories, users and roles, and leaves other subcommands to repos', async () => {
    assert.deepEqual((await cli('repos', 'public', 'x/none')).stderr, ['quarry: no such repository: x/none']);
    assert.deepEqual((await cli('repos', 'restrict', NAME, '--users', 'ghost')).stderr, ['quarry: no such user: ghost']);
    assert.deepEqual((await cli('repos', 'restrict', NAME, '--roles', 'ghost')).stderr, ['quarry: no role named "ghost"']);
    assert.equal((await cli('repos', 'public', NAME, '--users', 'alice')).code, 2);
    assert.equal((await cli('repos', 'list')).stdout.length, 2);
    assert.match((await runCli(['repos', '--help'])).stdout.join('\n'), /quarry repos restrict NAME/);
  });
});
