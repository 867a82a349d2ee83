import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { RepoRecord } from '../../src/store/records.js';
import { createSampleRepo, git, makeTempDir, removeDir, type SampleRepo } from '../git/fixtures.js';
import { runCli } from './capture.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));
const NAME = 'github.com/org/sample';

describe('quarry repos', () => {
  let root = '';
  let data = '';
  let sample: SampleRepo;
  before(() => {
    root = makeTempDir();
    data = join(root, 'data');
    sample = createSampleRepo(join(root, 'source'));
    mkdirSync(join(root, 'plain'));
  });
  after(() => removeDir(root));

  const listJson = async (): Promise<RepoRecord[]> => {
    const run = await runCli(['repos', 'list', '--json', '--data', data]);
    assert.equal(run.code, 0);
    return JSON.parse(run.stdout.join('\n')) as RepoRecord[];
  };

  it('adds a repository and lists it as a table and as JSON', async () => {
    const added = await runCli(['repos', 'add', NAME, sample.dir, '--data', data]);
    assert.deepEqual(added, { code: 0, stdout: [`added ${NAME} (default branch main)`], stderr: [] });

    const table = await runCli(['repos', '--data', data, 'list']);
    assert.equal(table.code, 0);
    assert.match(table.stdout[0] ?? '', /^NAME\s+SOURCE\s+DEFAULT BRANCH\s+LAST FETCHED\s+INDEXED\s+FILES\s+SKIPPED \(BINARY\/LARGE\)\s+SYMBOLS \(FILES\/UNSUPPORTED\/FAILED\)\s+INDEXING NOW\s+STATUS$/);
    assert.equal(table.stdout.length, 2);
    assert.match(table.stdout[1] ?? '', new RegExp(`^${NAME}\\s+${sample.dir}\\s+main\\s+\\d{4}-\\d\\d-\\d\\dT\\S+\\s+not indexed\\s+-\\s+-\\s+-\\s+-\\s+not indexed$`));

    const [repo] = await listJson();
    assert.equal(repo?.name, NAME);
    assert.equal(repo?.source, sample.dir);
    assert.equal(git(join(data, repo?.mirrorPath ?? ''), 'rev-parse', 'main'), sample.second);
  });

  const badInputs: [string, string[], number, RegExp][] = [
    ['a missing path', ['add', 'x/missing', 'no/such/path'], 1, /^quarry: no such path: \//],
    ['a plain directory', ['add', 'x/plain', 'PLAIN'], 1, /^quarry: not a git repository: \//],
    ['an unreachable URL', ['add', 'x/url', 'http://127.0.0.1:9/x.git'], 1, /^quarry: cannot reach http:\/\/127\.0\.0\.1:9\/x\.git: /],
    ['a duplicate name', ['add', NAME, 'SOURCE'], 1, /^quarry: repository already exists: github\.com\/org\/sample$/],
    ['a bad name', ['add', 'bad/../name', 'SOURCE'], 2, /^quarry: invalid repository name "bad\/..\/name": /],
    ['a missing argument', ['add', 'x/y'], 2, /^quarry: repos add: missing SOURCE$/],
    ['an extra argument', ['remove', 'a', 'b'], 2, /^quarry: repos remove: unexpected argument "b"$/],
    ['an unknown subcommand', ['rename', 'a'], 2, /^quarry: repos: unknown subcommand "rename"/],
    ['no subcommand', [], 2, /^quarry: repos: missing subcommand/],
    ['an unknown flag', ['list', '--all'], 2, /^quarry: unknown flag --all$/],
    ['--json outside list', ['add', '--json', 'a', 'SOURCE'], 2, /^quarry: repos add: --json applies only to list$/],
    ['removing an unknown repository', ['remove', 'x/unknown'], 1, /^quarry: no such repository: x\/unknown$/],
  ];
  for (const [label, args, exitCode, message] of badInputs) {
    it(`refuses ${label} with one line, exit ${exitCode}, and nothing stored touched`, async () => {
      const before = await listJson();
      assert.ok(before.length > 0);
      const argv = args.map((a) => (a === 'PLAIN' ? join(root, 'plain') : a === 'SOURCE' ? sample.dir : a));
      const run = await runCli(['repos', ...argv, '--data', data]);
      assert.equal(run.code, exitCode);
      assert.deepEqual(run.stdout, []);
      assert.equal(run.stderr.length, 1);
      assert.match(run.stderr[0] ?? '', message);
      assert.deepEqual(await listJson(), before);
      for (const repo of before) assert.ok(existsSync(join(data, repo.mirrorPath, 'HEAD')), repo.mirrorPath);
      assert.deepEqual(readdirSync(join(data, 'tmp')), []);
    });
  }

  it('removes a repository and its mirror', async () => {
    const [repo] = await listJson();
    const run = await runCli(['repos', 'remove', NAME, '--data', data]);
    assert.deepEqual(run, { code: 0, stdout: [`removed ${NAME}`], stderr: [] });
    assert.deepEqual(await listJson(), []);
    assert.equal(existsSync(join(data, repo?.mirrorPath ?? 'x')), false);
    const table = await runCli(['repos', 'list', '--data', data]);
    assert.deepEqual(table.stdout, ['NAME  SOURCE  DEFAULT BRANCH  LAST FETCHED  INDEXED  FILES  SKIPPED (BINARY/LARGE)  SYMBOLS (FILES/UNSUPPORTED/FAILED)  INDEXING NOW  STATUS']);
  });

  it('works as a process: QUARRY_DATA, relative sources, exit codes and one-line errors', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, QUARRY_DATA: 'proc-data' };
    delete env['QUARRY_DEBUG'];
    const quarry = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: root, env, encoding: 'utf8' });

    const added = quarry('repos', 'add', 'proc/sample', './source');
    assert.equal(added.status, 0, added.stderr);
    assert.equal(added.stdout, 'added proc/sample (default branch main)\n');
    assert.ok(existsSync(join(root, 'proc-data', 'mirrors')));

    const listed = quarry('repos', 'list');
    assert.equal(listed.status, 0);
    assert.match(listed.stdout, new RegExp(`proc/sample\\s+${join(root, 'source')}\\s+main`));

    const failed = quarry('repos', 'add', 'proc/other', './plain');
    assert.equal(failed.status, 1);
    assert.equal(failed.stdout, '');
    assert.equal(failed.stderr, `quarry: not a git repository: ${join(root, 'plain')}\n`);

    const debug = spawnSync(process.execPath, [BIN, 'repos', 'remove', 'x/unknown'], {
      cwd: root,
      env: { ...env, QUARRY_DEBUG: '1' },
      encoding: 'utf8',
    });
    assert.equal(debug.status, 1);
    assert.match(debug.stderr, /^quarry: no such repository: x\/unknown\nQuarryError: no such repository: x\/unknown\n\s+at /);

    const usage = quarry('repos', 'list', '--bogus');
    assert.equal(usage.status, 2);
    assert.equal(usage.stderr, 'quarry: unknown flag --bogus\n');

    const help = quarry('repos', '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /quarry repos add NAME SOURCE/);
  });
});
