/**
 * The MCP services' file reads: the indexed commit is served from the index without git (proved by
 * hiding the mirror), skipped files and other commits from git, and the result is the same bytes.
 */
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../src/api/mcp/services.js';
import { mirrorDir } from '../../src/repos/registry.js';
import { mcpServices } from '../../src/server/mcp.js';
import { getRepo } from '../../src/store/repos.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';
import { BINARY_CONTENT, commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const NAME = 'example.com/services';
let source = '';
let first = '';
let head = '';
let fixture: EngineFixture;
let services: McpServices;

before(async () => {
  source = initRepo(makeTempDir('quarry-mcp-services'));
  writeFiles(source, { 'a.txt': 'first\n', 'logo.bin': BINARY_CONTENT });
  first = commitAll(source, 'first');
  writeFiles(source, { 'a.txt': 'second\n' });
  head = commitAll(source, 'second');
  fixture = await createEngineFixture({ pool: 'in-thread' });
  await addAndIndex(fixture, NAME, source);
  services = mcpServices(fixture.engine);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

/** Runs `body` while the repository's mirror is out of git's reach. */
async function withoutMirror(body: () => Promise<void>): Promise<void> {
  const dir = mirrorDir({ dataDir: fixture.dataDir, store: fixture.engine.store }, getRepo(fixture.engine.store, NAME)!);
  renameSync(dir, `${dir}.hidden`);
  try {
    await body();
  } finally {
    renameSync(`${dir}.hidden`, dir);
  }
}

test('the default commit is the indexed commit, and its files are read without git', async () => {
  assert.equal(await services.defaultCommit(NAME), head);
  await withoutMirror(async () => {
    assert.equal((await services.repos.readBlob(NAME, head, 'a.txt'))?.toString(), 'second\n');
  });
});

test('the same read goes to git while the mirror is hidden for any other commit', async () => {
  await withoutMirror(async () => {
    await assert.rejects(services.repos.readBlob(NAME, first, 'a.txt'));
  });
  assert.equal((await services.repos.readBlob(NAME, first, 'a.txt'))?.toString(), 'first\n');
});

test('files the index skipped, and paths that are not files, are answered by git', async () => {
  assert.deepEqual(await services.repos.readBlob(NAME, head, 'logo.bin'), BINARY_CONTENT);
  assert.equal(await services.repos.readBlob(NAME, head, 'missing.txt'), null);
});
