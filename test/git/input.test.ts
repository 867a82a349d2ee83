/**
 * Paths and revisions from callers, on a real repository: the checks of git/input.ts, git reading
 * every pathspec literally, and resolveRevision refusing option-, range-, reflog- and path-shaped
 * revisions as not found (with the reason) before git sees them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { quoteInput, repoPathProblem, revisionProblem } from '../../src/git/input.js';
import { resolveRevision } from '../../src/git/mirror.js';
import { runGit } from '../../src/git/run.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from './fixtures.js';

describe('caller input for git', () => {
  let root = '';
  let repo = '';
  let head = '';
  before(() => {
    root = makeTempDir('quarry-git-input');
    repo = initRepo(`${root}/repo`);
    writeFiles(repo, { 'a.md': 'a\n', '*.md': 'star\n', ':(top)b.md': 'magic\n', 'docs/c.md': 'c\n' });
    head = commitAll(repo, 'files');
  });
  after(() => removeDir(root));

  it('names what is wrong with a path no tree can hold', () => {
    for (const ok of ['', 'a.md', 'docs/c.md', ':(glob)*', ':/x', '-rf', '.github/x', 'a..b']) assert.equal(repoPathProblem(ok), null, ok);
    assert.equal(repoPathProblem('../etc/passwd'), 'has a ".." segment; give the path from the repository root without "." or ".."');
    assert.equal(repoPathProblem('docs/./c.md'), 'has a "." segment; give the path from the repository root without "." or ".."');
    assert.equal(repoPathProblem('docs//c.md'), 'has an empty segment (a leading, trailing or doubled "/")');
    assert.equal(repoPathProblem('a\0b'), 'contains a NUL byte');
    assert.equal(repoPathProblem('x'.repeat(4097)), 'is longer than 4096 bytes');
  });

  it('names what is wrong with a revision that is not one branch, tag or commit', () => {
    for (const ok of ['main', 'v1.2.0', 'HEAD~2', 'main^', 'feature/x', head]) assert.equal(revisionProblem(ok), null, ok);
    assert.equal(revisionProblem('--output=/tmp/x'), 'starts with "-"');
    assert.equal(revisionProblem('main@{0}'), 'uses reflog syntax ("@{…}"), which is not supported');
    assert.equal(revisionProblem('@{-1}'), 'uses reflog syntax ("@{…}"), which is not supported');
    assert.equal(revisionProblem('main..HEAD'), 'is a range ("..") where one revision is expected');
    assert.equal(revisionProblem('main...HEAD'), 'is a range ("..") where one revision is expected');
    assert.equal(revisionProblem('HEAD:a.md'), 'contains ":" (the "revision:path" and ":/message" forms are not supported)');
    assert.equal(revisionProblem(':/files'), 'contains ":" (the "revision:path" and ":/message" forms are not supported)');
    assert.equal(revisionProblem('main^{/files}'), 'uses "^{…}" syntax, which is not supported');
    assert.equal(revisionProblem('main\0'), 'contains a space, a NUL byte or another control character');
    assert.equal(revisionProblem('a b'), 'contains a space, a NUL byte or another control character');
    assert.equal(revisionProblem('x'.repeat(1025)), 'is longer than 1024 characters');
    assert.equal(quoteInput('x'.repeat(200), 3), '"xxx…"');
  });

  it('has git read every pathspec literally: magic and globs name files of those names', async () => {
    const list = async (pathspec: string): Promise<string[]> =>
      (await runGit(['ls-tree', '-z', '--name-only', '-r', 'HEAD', '--', pathspec], { gitDir: `${repo}/.git` })).toString('utf8').split('\0').filter(Boolean);
    assert.deepEqual(await list('*.md'), ['*.md']);
    assert.deepEqual(await list(':(top)b.md'), [':(top)b.md']);
    assert.deepEqual(await list(':(glob)**'), []);
    assert.deepEqual(await list(':/'), []);
  });

  it('refuses option, range, reflog and path forms as revisions not found, saying why', async () => {
    assert.equal(await resolveRevision(`${repo}/.git`, 'main'), head);
    const refused: Record<string, string> = {
      '--output=/tmp/quarry-should-not-exist': 'starts with "-"',
      'main@{0}': 'uses reflog syntax ("@{…}"), which is not supported',
      'main..main': 'is a range ("..") where one revision is expected',
      'HEAD:a.md': 'contains ":" (the "revision:path" and ":/message" forms are not supported)',
      ':/files': 'contains ":" (the "revision:path" and ":/message" forms are not supported)',
      'main\0': 'contains a space, a NUL byte or another control character',
      ['m'.repeat(5000)]: 'is longer than 1024 characters',
    };
    for (const [rev, problem] of Object.entries(refused)) {
      await assert.rejects(resolveRevision(`${repo}/.git`, rev), (err: unknown) => {
        assert.ok(isQuarryError(err, 'REVISION_NOT_FOUND'), rev);
        assert.equal(err.message, `revision not found: ${quoteInput(rev)}`);
        assert.equal(err.details['problem'], problem);
        return true;
      });
    }
  });
});
