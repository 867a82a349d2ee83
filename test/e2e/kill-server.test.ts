/**
 * The server killed with SIGKILL while its sync is indexing new commits: the previous index keeps
 * serving, and the restarted server indexes what the mirror already fetched on its own (no
 * manual step), taking over the dead server's lock and removing its half-written segment.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { quarry, search, segmentDirs, until } from './cli-process.js';
import { startServerProcess } from './server-process.js';

const NAME = 'example.com/served';
const FAST_SYNC = { ...process.env, QUARRY_SYNC_INTERVAL_MS: '300' };
let source = '';
let data = '';

before(() => {
  source = makeTempDir('quarry-kill-server-src');
  data = makeTempDir('quarry-kill-server-data');
  initRepo(source);
  writeFiles(source, { 'old.txt': 'original_marker\n' });
  commitAll(source, 'first');
  assert.equal(quarry(data, ['repos', 'add', NAME, source]).status, 0);
  assert.equal(quarry(data, ['index']).status, 0);
});

after(() => {
  removeDir(source);
  removeDir(data);
});

test('a server killed while indexing leaves the old index serving; restarted, it finishes the job', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4000; i++) files[`gen/f${i}.txt`] = `generated ${i} new_marker ${'padding '.repeat(200)}\n`;
  writeFiles(source, files);
  commitAll(source, 'second');
  const before = new Set(segmentDirs(data));

  const first = await startServerProcess(data, [], FAST_SYNC);
  await until(() => segmentDirs(data).some((d) => !before.has(d)), 'the server to start indexing the new commit');
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const during = search(data, 'original_marker OR new_marker');
  assert.deepEqual([during.paths, during.shardsFailed], [['old.txt'], 0]);

  const second = await startServerProcess(data, [], FAST_SYNC);
  try {
    await until(() => search(data, 'count:all new_marker').paths.length === 4000, 'the restarted server to index the fetched commit', 60_000);
    assert.match(second.output(), /index: example\.com\/served: the index is at [0-9a-f]{12}, the mirror at [0-9a-f]{12}; indexing/);
    assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
    const listedSegments = (JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout) as { index: { segments: number } }[])[0]!.index.segments;
    assert.equal(segmentDirs(data).length, listedSegments, 'the killed run\'s segment is gone');
  } finally {
    assert.equal(await second.stop(), 0, second.output());
  }
});
