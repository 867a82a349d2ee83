/**
 * Repository.textSearchIndex through the server's GraphQL wiring over a real index: the published
 * index's figures, and each phase's state as runs publish it (text-only, a run under way, complete).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ANONYMOUS } from '../../../src/auth/principal.js';
import { PhaseMeter, ProgressFile } from '../../../src/indexer/index-progress.js';
import { addRepository } from '../../../src/repos/registry.js';
import { createServerGraphQL } from '../../../src/server/graphql.js';
import { getRepo } from '../../../src/store/repos.js';
import { createEngineFixture, type EngineFixture } from '../../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';

const REPO = 'example.com/status';
const QUERY = `query ($name: String!) {
  repository(name: $name) {
    textSearchIndex {
      repository { name }
      status { updatedAt contentByteSize contentFilesCount indexShardsCount commit }
      phases { name state done total rate etaSeconds }
    }
  }
}`;

let fixture: EngineFixture;
let source = '';

async function status(): Promise<any> {
  const handler = createServerGraphQL(fixture.engine);
  const response = await handler({ body: { query: QUERY, variables: { name: REPO } } }, { principal: { ...ANONYMOUS, canRead: () => true }, signal: new AbortController().signal });
  const json = JSON.parse(response.body);
  assert.equal(json.errors, undefined, JSON.stringify(json.errors));
  return json.data.repository.textSearchIndex;
}

const phase = (index: any, name: string) => index.phases.find((p: { name: string }) => p.name === name);

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  source = initRepo(makeTempDir('quarry-status-src'));
  writeFiles(source, { 'a.ts': 'export function a(): number {\n  return 1;\n}\n', 'b.txt': 'plain\n' });
  commitAll(source, 'first');
  await addRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, REPO, source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test('not indexed yet: null', async () => {
  assert.equal(await status(), null);
});

test('after a text-only run: text complete, symbols pending, the published index in Sourcegraph\'s shape', async () => {
  await fixture.engine.index(getRepo(fixture.engine.store, REPO)!, { textOnly: true });
  const index = await status();
  const manifest = fixture.engine.catalog.get(REPO)!;
  assert.deepEqual(index.repository, { name: REPO });
  assert.deepEqual(index.status, {
    updatedAt: manifest.indexedAt, contentByteSize: String(manifest.bytes), contentFilesCount: 2, indexShardsCount: 1, commit: manifest.commit,
  });
  assert.deepEqual(phase(index, 'TEXT'), { name: 'TEXT', state: 'COMPLETE', done: 2, total: 2, rate: 0, etaSeconds: 0 });
  assert.equal(phase(index, 'SYMBOLS').state, 'PENDING');
  assert.equal(phase(index, 'HISTORY').state, 'PENDING');
});

test('a run under way shows its phase as INDEXING with its counts, rate and ETA', async () => {
  const repo = getRepo(fixture.engine.store, REPO)!;
  const progress = new ProgressFile(fixture.dataDir, REPO, repo.id);
  try {
    new PhaseMeter('symbols', 'files', 2, progress.listener).update(1, 40);
    // Updates are written at most every 250 ms: this one follows the phase's start at once.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const symbols = phase(await status(), 'SYMBOLS');
    assert.equal(symbols.state, 'INDEXING');
    assert.equal(symbols.done, 1);
    assert.equal(symbols.total, 2);
    assert.ok(symbols.rate > 0 && symbols.etaSeconds !== null, JSON.stringify(symbols));
  } finally {
    progress.remove();
  }
  assert.equal(phase(await status(), 'SYMBOLS').state, 'PENDING', 'without the run, the manifest decides again');
});

test('after a full run: symbols complete', async () => {
  await fixture.engine.index(getRepo(fixture.engine.store, REPO)!);
  const index = await status();
  assert.deepEqual(phase(index, 'SYMBOLS'), { name: 'SYMBOLS', state: 'COMPLETE', done: 2, total: 2, rate: 0, etaSeconds: 0 });
  assert.equal(phase(index, 'HISTORY').state, 'COMPLETE');
});
