/**
 * Branch tips read from a bare repository's files equal what git resolves: loose refs, packed
 * refs, a loose ref newer than its packed line, and nothing for a branch that does not exist.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { branchFromFiles } from '../../src/history/ref-files.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

test('branchFromFiles equals git rev-parse for loose, packed and repacked-then-moved branches', () => {
  const root = makeTempDir('quarry-ref-files');
  try {
    const work = join(root, 'work');
    initRepo(work, 'main');
    writeFiles(work, { 'a.txt': 'one\n' });
    commitAll(work, 'one');
    git(work, 'branch', 'feature/x');
    const bare = join(root, 'repo.git');
    git(root, 'clone', '--quiet', '--mirror', work, bare);
    const resolved = (branch: string): string => git(bare, 'rev-parse', `refs/heads/${branch}`);
    git(bare, 'pack-refs', '--all');
    assert.equal(branchFromFiles(bare, 'main'), resolved('main'), 'packed');
    assert.equal(branchFromFiles(bare, 'feature/x'), resolved('feature/x'), 'packed, with a slash');
    writeFiles(work, { 'a.txt': 'two\n' });
    commitAll(work, 'two');
    git(bare, 'fetch', '--quiet', work, '+refs/heads/main:refs/heads/main');
    assert.notEqual(resolved('main'), resolved('feature/x'));
    assert.equal(branchFromFiles(bare, 'main'), resolved('main'), 'a loose ref newer than its packed line');
    assert.equal(branchFromFiles(bare, 'no-such-branch'), undefined);
    assert.equal(branchFromFiles(bare, 'feature'), undefined, 'a ref directory is not a ref');
  } finally {
    removeDir(root);
  }
});
