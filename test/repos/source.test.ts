import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { checkSource, redactSource, sourceKind } from '../../src/repos/source.js';
import { commitAll, initRepo, makeTempDir, removeDir } from '../git/fixtures.js';

describe('repository sources', () => {
  let root = '';
  let repo = '';
  before(() => {
    root = makeTempDir();
    repo = initRepo(join(root, 'repo'));
    commitAll(repo, 'one');
    mkdirSync(join(root, 'plain'));
  });
  after(() => removeDir(root));

  it('tells local paths from URLs the way git does', () => {
    assert.equal(sourceKind('/abs/path'), 'path');
    assert.equal(sourceKind('relative/dir'), 'path');
    assert.equal(sourceKind('./a:b'), 'path');
    assert.equal(sourceKind('file:///srv/repo.git'), 'file-url');
    assert.equal(sourceKind('https://github.com/org/repo.git'), 'remote');
    assert.equal(sourceKind('ssh://git@host/repo'), 'remote');
    assert.equal(sourceKind('git@github.com:org/repo.git'), 'remote');
  });

  it('hides passwords in URLs', () => {
    assert.equal(redactSource('https://user:secret@host/repo.git'), 'https://user:***@host/repo.git');
    assert.equal(redactSource('https://host/repo.git'), 'https://host/repo.git');
    assert.equal(redactSource('/local/path'), '/local/path');
  });

  it('refuses fd:: at once instead of waiting on the descriptor', async () => {
    const started = performance.now();
    await assert.rejects(checkSource('fd::17'), (err: unknown) => isQuarryError(err, 'REPO_SOURCE_INVALID'));
    // It used to wait for the 20 s reach timeout.
    assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
  });

  it('lets git transports and scp-style addresses through to the reach check', async () => {
    for (const source of ['ssh://127.0.0.1:9/x.git', 'git://127.0.0.1:9/x.git', 'git+ssh://127.0.0.1:9/x.git', '127.0.0.1:x.git']) {
      await assert.rejects(checkSource(source), (err: unknown) => isQuarryError(err, 'REPO_SOURCE_INVALID') && err.message.startsWith('cannot reach '), source);
    }
  });

  it('makes relative paths absolute and keeps URLs as given', async () => {
    assert.equal(await checkSource('repo', root), repo);
    const url = pathToFileURL(repo).href;
    assert.equal(await checkSource(url), url);
  });

  const invalid: [string, () => string, RegExp][] = [
    ['a missing path', () => join(root, 'missing'), /^no such path: /],
    ['a plain directory', () => join(root, 'plain'), /^not a git repository: /],
    ['a file:// URL to a plain directory', () => pathToFileURL(join(root, 'plain')).href, /^not a git repository: /],
    ['an unreachable URL', () => 'http://127.0.0.1:9/x.git', /^cannot reach http:\/\/127\.0\.0\.1:9\/x\.git: /],
    ['an empty source', () => ' ', /must be a path or git URL/],
    ['an fd:: remote helper', () => 'fd::17', /^remote-helper transport "fd::" refused: /],
    ['an fd:: remote helper with two descriptors', () => 'fd::17,18/repo', /^remote-helper transport "fd::" refused: /],
    ['an ext:: remote helper', () => 'ext::sh -c touch% /tmp/quarry-pwned', /^remote-helper transport "ext::" refused: /],
    ['any other remote helper', () => 'my-helper.v2+x::host/repo', /^remote-helper transport "my-helper\.v2\+x::" refused: /],
    ['a helper-only URL scheme', () => 'testgit://host/repo', /^URL scheme "testgit" refused: /],
    ['an option as a source', () => '--upload-pack=touch /tmp/quarry-pwned', /must not start with "-"/],
    ['an option in scp form', () => '-oProxyCommand=touch /tmp/quarry-pwned:repo', /must not start with "-"/],
  ];
  for (const [label, source, message] of invalid) {
    it(`rejects ${label} with REPO_SOURCE_INVALID`, async () => {
      await assert.rejects(checkSource(source()), (err: unknown) => {
        assert.ok(isQuarryError(err, 'REPO_SOURCE_INVALID'));
        assert.match(err.message, message);
        assert.ok(!err.message.includes('\n'));
        return true;
      });
    });
  }
});
