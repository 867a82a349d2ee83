import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import {
  cloneMirror,
  defaultBranch,
  fetchMirror,
  isGitRepository,
  listRefs,
  probeRemote,
  resolveRevision,
} from '../../src/git/mirror.js';
import { commitAll, createSampleRepo, git, initRepo, makeTempDir, removeDir, writeFiles, type SampleRepo } from './fixtures.js';

describe('mirrors', () => {
  let root = '';
  let sample: SampleRepo;
  let bareSource = '';
  before(() => {
    root = makeTempDir();
    sample = createSampleRepo(join(root, 'work'));
    bareSource = join(root, 'bare.git');
    git(root, 'clone', '--quiet', '--bare', sample.dir, bareSource);
  });
  after(() => removeDir(root));

  const sources: [string, () => string][] = [
    ['a non-bare local repository', () => sample.dir],
    ['a bare local repository', () => bareSource],
    ['a file:// URL', () => pathToFileURL(sample.dir).href],
  ];
  for (const [label, source] of sources) {
    it(`clones ${label} as a bare mirror with branches and tags`, async () => {
      const dest = join(root, `mirror-${label.replace(/\W+/g, '-')}.git`);
      await cloneMirror(source(), dest);
      assert.equal(git(dest, 'rev-parse', '--is-bare-repository'), 'true');
      const refs = await listRefs(dest);
      assert.deepEqual(
        refs.map((r) => [r.kind, r.name, r.oid]),
        [
          ['branch', 'feature', sample.feature],
          ['branch', 'main', sample.second],
          ['tag', 'v1', sample.first],
        ],
      );
      assert.equal(await defaultBranch(dest), 'main');
      assert.deepEqual(git(dest, 'config', '--get-all', 'remote.origin.fetch').split('\n'), [
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ]);
    });
  }

  it('fails with GIT_FAILED when the source is not a repository', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    await assert.rejects(cloneMirror(plain, join(root, 'never.git')), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
  });

  it('fetches new commits, prunes deleted branches and follows a moved HEAD', async () => {
    const source = initRepo(join(root, 'moving'));
    writeFiles(source, { 'a.txt': 'one\n' });
    commitAll(source, 'one');
    git(source, 'branch', 'doomed');
    const mirror = join(root, 'moving-mirror.git');
    await cloneMirror(source, mirror);

    writeFiles(source, { 'a.txt': 'two\n' });
    const two = commitAll(source, 'two');
    git(source, 'branch', '-D', 'doomed');
    git(source, 'checkout', '--quiet', '-b', 'trunk');
    await fetchMirror(mirror);

    assert.equal(await resolveRevision(mirror, 'main'), two);
    assert.deepEqual((await listRefs(mirror)).map((r) => r.name), ['main', 'trunk']);
    assert.equal(await defaultBranch(mirror), 'trunk');
  });

  it('falls back to main, then master, when HEAD names no branch', async () => {
    const source = initRepo(join(root, 'odd-head'), 'master');
    commitAll(source, 'one');
    git(source, 'branch', 'aaa-first');
    git(source, 'symbolic-ref', 'HEAD', 'refs/heads/gone');
    assert.equal(await defaultBranch(join(source, '.git')), 'master');
    git(source, 'branch', 'main', 'master');
    assert.equal(await defaultBranch(join(source, '.git')), 'main');
  });

  it('resolves revisions to full commit ids', async () => {
    const gitDir = join(sample.dir, '.git');
    assert.equal(await resolveRevision(gitDir, 'main'), sample.second);
    assert.equal(await resolveRevision(gitDir, 'v1'), sample.first);
    assert.equal(await resolveRevision(gitDir, 'main~1'), sample.first);
    assert.equal(await resolveRevision(gitDir, sample.feature.slice(0, 12)), sample.feature);
    for (const rev of ['no-such-branch', '', '--all', 'main:README.md', 'a\nb']) {
      await assert.rejects(resolveRevision(gitDir, rev), (err: unknown) => isQuarryError(err, 'REVISION_NOT_FOUND'), rev);
    }
  });

  it('says GIT_FAILED, not REVISION_NOT_FOUND, when the repository itself is missing', async () => {
    await assert.rejects(resolveRevision(join(root, 'nowhere.git'), 'main'), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
  });

  it('recognises repositories only at the given path', async () => {
    const plain = join(root, 'not-a-repo');
    mkdirSync(plain);
    writeFileSync(join(root, 'a-file'), 'x');
    assert.equal(await isGitRepository(sample.dir), true);
    assert.equal(await isGitRepository(bareSource), true);
    assert.equal(await isGitRepository(join(sample.dir, 'src')), false, 'a subdirectory of a work tree');
    assert.equal(await isGitRepository(plain), false);
    assert.equal(await isGitRepository(join(root, 'a-file')), false);
    assert.equal(await isGitRepository(join(root, 'missing')), false);
  });

  it('never lets a mirror fetch through a remote helper, whatever its config names', async () => {
    const mirror = join(root, 'helper-mirror.git');
    await cloneMirror(bareSource, mirror);
    const marker = join(root, 'helper-ran');
    for (const [url, transport] of [['fd::17', 'fd'], [`ext::sh -c touch% ${marker}`, 'ext']] as const) {
      git(mirror, 'remote', 'set-url', 'origin', url);
      const started = performance.now();
      await assert.rejects(fetchMirror(mirror), (err: unknown) => isQuarryError(err, 'GIT_FAILED') && err.message.includes(`transport '${transport}' not allowed`));
      await assert.rejects(probeRemote(url), (err: unknown) => isQuarryError(err, 'GIT_FAILED') && err.message.includes(`transport '${transport}' not allowed`));
      assert.ok(performance.now() - started < 5000, `${transport} took ${performance.now() - started} ms`);
    }
    assert.equal(existsSync(marker), false);
  });

  it('probes remotes: a live one resolves, a dead one fails fast', async () => {
    await probeRemote(pathToFileURL(bareSource).href);
    const started = Date.now();
    await assert.rejects(probeRemote('http://127.0.0.1:9/x.git'), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
    assert.ok(Date.now() - started < 10_000);
  });
});
