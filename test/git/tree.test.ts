import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { blobSizes, diffTrees, listTree, type TreeEntry } from '../../src/git/tree.js';
import { BINARY_CONTENT, commitAll, createSampleRepo, git, makeTempDir, removeDir, writeFiles, type SampleRepo } from './fixtures.js';

function byPath(entries: readonly TreeEntry[]): Map<string, TreeEntry> {
  return new Map(entries.map((e) => [e.path, e]));
}

describe('trees', () => {
  let root = '';
  let sample: SampleRepo;
  let gitDir = '';
  before(() => {
    root = makeTempDir();
    sample = createSampleRepo(join(root, 'work'));
    gitDir = join(sample.dir, '.git');
  });
  after(() => removeDir(root));

  it('lists every regular file and counts the symlink and submodule it skips', async () => {
    const { entries, skipped } = await listTree(gitDir, sample.first);
    assert.deepEqual(entries.map((e) => e.path).sort(), [
      'README.md',
      'assets/blob.bin',
      'deep/a/b/c/d.txt',
      'empty.txt',
      'scripts/run.sh',
      'src/lib/util.ts',
      'src/main.ts',
    ]);
    assert.deepEqual(skipped, { submodules: 1, symlinks: 1 });
    const files = byPath(entries);
    const binary = files.get('assets/blob.bin');
    assert.equal(binary?.size, BINARY_CONTENT.length);
    assert.equal(binary?.blobOid, git(sample.dir, 'rev-parse', `${sample.first}:assets/blob.bin`));
    assert.equal(files.get('empty.txt')?.size, 0);
    assert.equal(files.get('scripts/run.sh')?.mode, '100755');
    assert.equal(files.get('README.md')?.mode, '100644');
  });

  it('keeps paths with spaces, tabs and non-ASCII characters intact', async () => {
    const odd = join(root, 'odd');
    git(root, 'init', '--quiet', odd);
    writeFiles(odd, { 'dir with space/tab\there.txt': 'x', 'ünïcødé/ファイル.md': 'y' });
    const commit = commitAll(odd, 'odd names');
    const { entries } = await listTree(join(odd, '.git'), commit);
    assert.deepEqual(entries.map((e) => e.path).sort(), ['dir with space/tab\there.txt', 'ünïcødé/ファイル.md']);
  });

  it('diffs two commits: adds, modifications, deletions, renames as delete plus add', async () => {
    const diff = await diffTrees(gitDir, sample.first, sample.second);
    assert.deepEqual(diff.added.map((e) => e.path), ['deep/moved.txt', 'new.txt']);
    assert.deepEqual(diff.modified.map((e) => e.path), ['README.md', 'src/main.ts']);
    assert.deepEqual(diff.deleted, ['deep/a/b/c/d.txt', 'src/lib/util.ts']);

    const readme = diff.modified.find((e) => e.path === 'README.md');
    assert.equal(readme?.blobOid, git(sample.dir, 'rev-parse', `${sample.second}:README.md`));
    assert.equal(readme?.size, '# sample, changed\n'.length);
    const mainTs = diff.modified.find((e) => e.path === 'src/main.ts');
    assert.equal(mainTs?.mode, '100755', 'a mode-only change is a modification');
    assert.equal(diff.added.find((e) => e.path === 'new.txt')?.size, 'new file\n'.length);
  });

  it('treats a file that becomes a symlink as deleted, and the reverse as added', async () => {
    const repo = join(root, 'flip');
    git(root, 'init', '--quiet', repo);
    writeFiles(repo, { 'target.txt': 'target\n', 'flip.txt': 'file\n' });
    const asFile = commitAll(repo, 'file');
    git(repo, 'rm', '--quiet', 'flip.txt');
    git(repo, 'update-index', '--add', '--cacheinfo', `120000,${git(repo, 'hash-object', '-w', 'target.txt')},flip.txt`);
    git(repo, 'commit', '--quiet', '-m', 'symlink');
    const asLink = git(repo, 'rev-parse', 'HEAD');
    const there = await diffTrees(join(repo, '.git'), asFile, asLink);
    assert.deepEqual([there.added.length, there.modified.length, there.deleted], [0, 0, ['flip.txt']]);
    const back = await diffTrees(join(repo, '.git'), asLink, asFile);
    assert.deepEqual(back.added.map((e) => [e.path, e.size]), [['flip.txt', 5]]);
    assert.deepEqual([back.modified.length, back.deleted.length], [0, 0]);
  });

  it('finds nothing between a commit and itself', async () => {
    assert.deepEqual(await diffTrees(gitDir, sample.second, sample.second), { added: [], modified: [], deleted: [] });
  });

  it('rejects unknown commits and option-like revisions', async () => {
    await assert.rejects(listTree(gitDir, 'f'.repeat(40)), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
    await assert.rejects(listTree(gitDir, '--help'), (err: unknown) => isQuarryError(err, 'REVISION_NOT_FOUND'));
    await assert.rejects(diffTrees(gitDir, '-R', sample.second), (err: unknown) => isQuarryError(err, 'REVISION_NOT_FOUND'));
  });

  it('looks up blob sizes in one batch and refuses unknown or malformed ids', async () => {
    const { entries } = await listTree(gitDir, sample.first);
    const sizes = await blobSizes(gitDir, entries.map((e) => e.blobOid));
    for (const entry of entries) assert.equal(sizes.get(entry.blobOid), entry.size);
    await assert.rejects(blobSizes(gitDir, ['0'.repeat(40)]), /not found/);
    await assert.rejects(blobSizes(gitDir, ['HEAD']), /invalid object id/);
  });
});
