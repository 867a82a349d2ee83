import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { readCommitHeader } from '../../src/git/commit.js';
import { blobSizes, diffTrees, listDirectory, listTree, readFileAt, type TreeEntry } from '../../src/git/tree.js';
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

  it('lists one directory, or a whole subtree with its directories, with paths from the root', async () => {
    const root = await listDirectory(gitDir, sample.first, '', false);
    assert.deepEqual(root?.map((e) => `${e.type} ${e.path}`).sort(), [
      'blob README.md', 'blob empty.txt', 'blob link', 'tree assets', 'tree deep', 'tree scripts', 'tree src', 'tree vendor',
    ]);
    const src = await listDirectory(gitDir, sample.first, '/src/', true);
    assert.deepEqual(src?.map((e) => `${e.type} ${e.path}`), ['tree src/lib', 'blob src/lib/util.ts', 'blob src/main.ts']);
    assert.equal(src?.[2]?.oid, git(sample.dir, 'rev-parse', `${sample.first}:src/main.ts`));
    const vendor = await listDirectory(gitDir, sample.first, 'vendor', false);
    assert.deepEqual(vendor?.map((e) => `${e.type} ${e.path}`), ['commit vendor/sub']);
  });

  it('answers null for a directory that is a file, missing, or outside the repository', async () => {
    for (const path of ['README.md', 'nowhere', '../..', 'src/../src', 'src/./lib']) {
      assert.equal(await listDirectory(gitDir, sample.first, path, false), null, path);
    }
  });

  it('reads a file at a commit, and nothing for trees, submodules, missing or unsafe paths', async () => {
    assert.equal((await readFileAt(gitDir, sample.first, 'src/lib/util.ts', 1024))?.toString(), 'export function util(): number {\n  return 2;\n}\n');
    assert.deepEqual(await readFileAt(gitDir, sample.first, '/assets/blob.bin', 1 << 20), BINARY_CONTENT);
    assert.equal((await readFileAt(gitDir, sample.second, 'README.md', 1024))?.toString(), '# sample, changed\n');
    for (const path of ['src', 'vendor/sub', 'src/lib/util.ts/x', 'missing.txt', '', '../README.md', 'src/../README.md']) {
      assert.equal(await readFileAt(gitDir, sample.second, path, 1024), null, path);
    }
    await assert.rejects(readFileAt(gitDir, sample.first, 'assets/blob.bin', 100), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
  });

  it('reads a commit header with the author date in UTC and the message without trailing newlines', async () => {
    const repo = join(root, 'dated');
    git(root, 'init', '--quiet', repo);
    writeFiles(repo, { 'a.txt': 'a\n' });
    git(repo, 'add', '--all');
    execFileSync('git', ['commit', '--quiet', '-m', 'subject\n\nbody line\n\n'], {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_AUTHOR_DATE: '2024-03-01T10:00:00+02:00', GIT_COMMITTER_NAME: 'C', GIT_COMMITTER_EMAIL: 'c@example.com' },
    });
    const oid = git(repo, 'rev-parse', 'HEAD');
    assert.deepEqual(await readCommitHeader(join(repo, '.git'), oid), {
      oid, authorName: 'Ada', authorEmail: 'ada@example.com', authorDate: '2024-03-01T08:00:00Z', message: 'subject\n\nbody line',
    });
  });

  it('looks up blob sizes in one batch and refuses unknown or malformed ids', async () => {
    const { entries } = await listTree(gitDir, sample.first);
    const sizes = await blobSizes(gitDir, entries.map((e) => e.blobOid));
    for (const entry of entries) assert.equal(sizes.get(entry.blobOid), entry.size);
    await assert.rejects(blobSizes(gitDir, ['0'.repeat(40)]), /not found/);
    await assert.rejects(blobSizes(gitDir, ['HEAD']), /invalid object id/);
  });
});
