/**
 * Names an agent can guess, over real indexed repositories: a repository by an unambiguous suffix,
 * an ambiguous one answered with its candidates, and "not found" answers naming the closest
 * repositories and refs, never one the caller may not read.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { closest } from '../../../../src/api/mcp/tools/closest-names.js';
import { commitSearchTool } from '../../../../src/api/mcp/tools/commit-search.js';
import { compareRevisionsTool } from '../../../../src/api/mcp/tools/compare-revisions.js';
import { diffSearchTool } from '../../../../src/api/mcp/tools/diff-search.js';
import { listFilesTool } from '../../../../src/api/mcp/tools/list-files.js';
import { readFileTool } from '../../../../src/api/mcp/tools/read-file.js';
import { gitDirOf } from '../../../../src/repos/registry.js';
import { mcpServices } from '../../../../src/server/mcp.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool } from '../tool-context.js';

const MUX = 'github.com/gorilla/mux';
const OTHER_MUX = 'github.com/other/mux';
const ROUTER = 'github.com/acme/router';
const HIDDEN = 'github.com/acme/routers';
const canRead = (repo: string): boolean => repo !== HIDDEN;

let engine: EngineFixture;
let services: McpServices;
let sources = '';

before(async () => {
  engine = await createEngineFixture({ pool: 'in-thread' });
  sources = makeTempDir('quarry-names');
  for (const name of [MUX, OTHER_MUX, ROUTER, HIDDEN]) {
    const dir = initRepo(`${sources}/${name.replaceAll('/', '_')}`);
    writeFiles(dir, { 'main.go': `package main // ${name}\n`, 'internal/routing/table.go': 'package routing\n' });
    commitAll(dir, 'initial');
    if (name === ROUTER) for (const tag of ['4.21.0', '4.20.0', 'v1.0.0']) git(dir, 'tag', tag);
    await addAndIndex(engine, name, dir);
  }
  services = mcpServices(engine.engine);
});

after(async () => {
  await engine.engine.close();
  removeDir(engine.dataDir);
  removeDir(sources);
});

const read = (args: Record<string, unknown>) => callTool(services, readFileTool, { path: 'main.go', ...args }, { canRead });

test('an unambiguous suffix of a repository name is that repository', async () => {
  for (const repo of ['acme/router', 'router', 'ACME/Router', `${ROUTER}/`]) {
    const answer = await read({ repo });
    assert.equal(answer.isError, undefined, `${repo}: ${answer.text}`);
    assert.match(answer.text, /package main \/\/ github\.com\/acme\/router/);
  }
  assert.match((await read({ repo: 'gorilla/mux' })).text, /package main \/\/ github\.com\/gorilla\/mux/);
});

test('an ambiguous suffix lists the repositories it matches', async () => {
  const answer = await read({ repo: 'mux' });
  assert.equal(answer.isError, true);
  assert.equal(answer.text, `Repository name mux is ambiguous: it matches 2 repositories (${MUX}, ${OTHER_MUX}). Pass one of them in full.`);
});

test('an unknown repository names the closest readable ones, never an unreadable one', async () => {
  const near = await read({ repo: 'acme/ruter' });
  assert.equal(near.isError, true);
  assert.equal(near.text, `Repository not found: acme/ruter. Did you mean ${ROUTER}? Use list_repos to find repository names.`);
  const hidden = await read({ repo: HIDDEN });
  assert.equal(hidden.text, `Repository not found: ${HIDDEN}. Did you mean ${ROUTER}? Use list_repos to find repository names.`);
  assert.equal((await read({ repo: 'routers' })).text, `Repository not found: routers. Did you mean ${ROUTER}? Use list_repos to find repository names.`);
  assert.equal((await read({ repo: 'zzz' })).text, 'Repository not found: zzz. Use list_repos to find repository names.');
});

test('an unknown revision names the closest refs: a v prefix too many, a typo', async () => {
  const tagged = await read({ repo: ROUTER, revision: 'v4.21.0' });
  assert.equal(tagged.isError, true);
  assert.match(tagged.text, /^Revision not found: v4\.21\.0 in github\.com\/acme\/router\. Closest existing: 4\.21\.0, 4\.20\.0\. /);
  assert.match((await read({ repo: ROUTER, revision: 'mian' })).text, /Closest existing: main\./);
  assert.doesNotMatch((await read({ repo: ROUTER, revision: 'completely-different' })).text, /Closest/);
});

test('an unknown file or directory names the closest ones by name', async () => {
  assert.match((await read({ repo: ROUTER, path: 'table.go' })).text, /^File not found: table\.go \(github\.com\/acme\/router@[0-9a-f]{12}\)\. Did you mean internal\/routing\/table\.go\? Use list_files to see the directory\.$/);
  assert.match((await read({ repo: ROUTER, path: 'internal/tabel.go' })).text, /Did you mean internal\/routing\/table\.go\?/);
  const dir = await callTool(services, listFilesTool, { repo: ROUTER, path: 'routng' }, { canRead });
  assert.match(dir.text, /^Directory not found: routng \(.*\)\. Did you mean internal\/routing\? Use list_files/);
  assert.doesNotMatch((await read({ repo: ROUTER, path: 'zzzzzz.go' })).text, /Did you mean/);
});

test('compare_revisions takes a suffix too, and an unknown base names the closest refs', async () => {
  const answer = await callTool(services, compareRevisionsTool, { repo: 'acme/router', base: '4.20.0', head: '4.21.0' }, { canRead });
  assert.equal(answer.isError, undefined, answer.text);
  const tagged = await callTool(services, compareRevisionsTool, { repo: 'acme/router', base: 'v4.20.0', head: '4.21.0' }, { canRead });
  assert.equal(tagged.isError, true);
  assert.match(tagged.text, /^Revision not found: v4\.20\.0 in github\.com\/acme\/router\. .*Closest existing: 4\.20\.0, 4\.21\.0\.$/);
});

test('commit_search and diff_search take a suffix too', async () => {
  const commits = await callTool(services, commitSearchTool, { repos: ['acme/router'], messageTerms: ['initial'] }, { canRead });
  assert.equal(commits.isError, undefined, commits.text);
  assert.match(commits.text, /github\.com\/acme\/router/);
  const unknown = await callTool(services, commitSearchTool, { repos: ['acme/ruter'] }, { canRead });
  assert.match(unknown.text, /^Repository not found: acme\/ruter\. Did you mean github\.com\/acme\/router\?/);
  const diffs = await callTool(services, diffSearchTool, { repos: ['acme/router'], pattern: 'package main' }, { canRead });
  assert.equal(diffs.isError, undefined, diffs.text);
});

test('diff_search reads the default branch when the mirror\'s HEAD names a branch it does not have', async () => {
  const mirror = gitDirOf({ dataDir: engine.dataDir, store: engine.engine.store }, MUX);
  git(mirror, 'symbolic-ref', 'HEAD', 'refs/heads/no-such-branch');
  const answer = await callTool(services, diffSearchTool, { repos: [MUX], pattern: 'package main' }, { canRead });
  assert.equal(answer.isError, undefined, answer.text);
  assert.match(answer.text, /main\.go/);
});

test('closest: exact but for case or a v prefix first, then small edits, then containment', () => {
  assert.deepEqual(closest('v2.0.0', ['2.0.0', '2.0.1', 'v3.0.0', 'main']), ['2.0.0', '2.0.1', 'v3.0.0']);
  assert.deepEqual(closest('mian', ['main', 'master', 'dev']), ['main']);
  assert.deepEqual(closest('feature', ['feature/login', 'main']), ['feature/login']);
  assert.deepEqual(closest('', ['main']), []);
});
