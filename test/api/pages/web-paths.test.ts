/**
 * The web app's URL shapes: every link MCP answers and GraphQL carry parses back to its
 * repository, revision, view and path; what is not a repository location is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blobUrl as mcpBlobUrl } from '../../../src/api/mcp/format.js';
import { blobUrl, parseRepoPath, repoViewUrl } from '../../../src/api/pages/web/web-paths.js';

test('a repository alone is its root tree on the default branch', () => {
  assert.deepEqual(parseRepoPath('/github.com/a/b'), { repo: 'github.com/a/b', rev: null, view: 'tree', path: '', range: null });
  assert.deepEqual(parseRepoPath('/github.com/a/b@v1.2/'), { repo: 'github.com/a/b', rev: 'v1.2', view: 'tree', path: '', range: null });
});

test('a revision may hold slashes; paths and revisions are percent-decoded', () => {
  assert.deepEqual(parseRepoPath('/github.com/a/b@feature/x%20y/-/tree/src/my%20dir/'), { repo: 'github.com/a/b', rev: 'feature/x y', view: 'tree', path: 'src/my dir', range: null });
  assert.deepEqual(parseRepoPath('/github.com/a/b/-/compare/v1...v2'), { repo: 'github.com/a/b', rev: null, view: 'compare', path: 'v1...v2', range: null });
});

test('the range MCP answers append as %3FL<a>-<b> becomes the blob range', () => {
  const url = new URL(mcpBlobUrl('http://h', 'github.com/a/b', 'c'.repeat(40), 'dir/with space/x?.ts', { start: 10, end: 20 }));
  assert.deepEqual(parseRepoPath(url.pathname), { repo: 'github.com/a/b', rev: 'c'.repeat(40), view: 'blob', path: 'dir/with space/x?.ts', range: { start: 10, end: 20 } });
  assert.deepEqual(parseRepoPath('/r/-/blob/a.go%3FL7')?.range, { start: 7, end: 7 });
});

test('what we write, we read back', () => {
  const path = 'src/ünïcode/#hash%/file name.ts';
  const written = repoViewUrl('github.com/a/b', 'release/1.0', 'blob', path);
  assert.deepEqual(parseRepoPath(written), { repo: 'github.com/a/b', rev: 'release/1.0', view: 'blob', path, range: null });
  assert.equal(blobUrl('r', null, 'x.go', { start: 3, end: 3 }), '/r/-/blob/x.go#L3');
  assert.equal(blobUrl('r', null, 'x.go', { start: 3, end: 9 }), '/r/-/blob/x.go#L3-9');
});

test('malformed locations are refused, not guessed', () => {
  for (const bad of ['', '/', '/r@/-/tree', '/%E0%A4%A/-/tree', '/r/-/', '/r/-/blob/%zz']) assert.equal(parseRepoPath(bad), null, bad);
});
