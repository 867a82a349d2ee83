import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { execGit, firstErrorLine, runGit } from '../../src/git/run.js';
import { createSampleRepo, makeTempDir, removeDir, type SampleRepo } from './fixtures.js';

describe('runGit', () => {
  let root = '';
  let repo: SampleRepo;
  before(() => {
    root = makeTempDir();
    repo = createSampleRepo(`${root}/src`);
  });
  after(() => removeDir(root));

  it('returns stdout as a buffer', async () => {
    const out = await runGit(['rev-parse', 'HEAD'], { cwd: repo.dir });
    assert.equal(out.toString('utf8').trim(), repo.second);
  });

  it('uses gitDir instead of searching from the working directory', async () => {
    const out = await runGit(['rev-parse', 'main'], { gitDir: `${repo.dir}/.git`, cwd: root });
    assert.equal(out.toString('utf8').trim(), repo.second);
  });

  it('feeds input on stdin', async () => {
    const out = await runGit(['hash-object', '--stdin'], { cwd: repo.dir, input: '# sample\n' });
    const expected = await runGit(['rev-parse', `${repo.first}:README.md`], { cwd: repo.dir });
    assert.equal(out.toString('utf8'), expected.toString('utf8'));
  });

  it('turns a non-zero exit into GIT_FAILED with git\'s complaint', async () => {
    await assert.rejects(runGit(['rev-parse', '--verify', 'no-such-branch'], { cwd: repo.dir }), (err: unknown) => {
      assert.ok(isQuarryError(err, 'GIT_FAILED'));
      assert.equal(err.message, 'git rev-parse failed: fatal: Needed a single revision');
      assert.equal(err.details['exitCode'], 128);
      return true;
    });
  });

  it('names the subcommand past -c options in its message', async () => {
    await assert.rejects(runGit(['-c', 'x.y=z', 'cat-file', '-t', 'f'.repeat(40)], { cwd: repo.dir }), /^QuarryError: git cat-file failed: fatal: /);
  });

  it('kills git when the output exceeds the cap', async () => {
    await assert.rejects(runGit(['cat-file', 'blob', `${repo.first}:assets/blob.bin`], { cwd: repo.dir, maxBytes: 100 }), (err: unknown) => {
      assert.ok(isQuarryError(err, 'GIT_FAILED'));
      assert.match(err.message, /output exceeds 100 bytes/);
      return true;
    });
  });

  it('kills git at the timeout without waiting for its children', async () => {
    const started = Date.now();
    await assert.rejects(runGit(['-c', 'alias.slow=!sleep 3', 'slow'], { cwd: repo.dir, timeoutMs: 200 }), (err: unknown) => {
      assert.ok(isQuarryError(err, 'GIT_FAILED'));
      assert.equal(err.details['timedOut'], true);
      return true;
    });
    assert.ok(Date.now() - started < 2000, 'rejected long before the child finished');
  });

  it('reports the exit code without throwing through execGit', async () => {
    const result = await execGit(['rev-parse', '--verify', '--quiet', 'nope'], { cwd: repo.dir });
    assert.equal(result.code, 1);
    assert.equal(result.stdout.length, 0);
  });

  it('ignores an inherited GIT_DIR', async () => {
    const saved = process.env['GIT_DIR'];
    process.env['GIT_DIR'] = root;
    try {
      const out = await runGit(['rev-parse', 'HEAD'], { cwd: repo.dir });
      assert.equal(out.toString('utf8').trim(), repo.second);
    } finally {
      if (saved === undefined) delete process.env['GIT_DIR'];
      else process.env['GIT_DIR'] = saved;
    }
  });
});

describe('firstErrorLine', () => {
  it('prefers the first fatal or error line over warnings', () => {
    assert.equal(firstErrorLine('warning: x\n\nfatal: the problem\nmore\n'), 'fatal: the problem');
    assert.equal(firstErrorLine('  just text  \nsecond'), 'just text');
    assert.equal(firstErrorLine(''), '');
  });
});
