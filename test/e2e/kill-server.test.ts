/**
 * The server killed with SIGKILL while its sync is indexing new commits: the previous index keeps
 * serving, and the restarted server indexes what the mirror already fetched on its own (no
 * manual step), taking over the dead server's lock and removing its half-written segment.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commitAll, writeFiles } from '../git/fixtures.js';
import { generatedFiles, indexedRepository, quarry, search, segmentDirs, until } from './cli-process.js';
import { startServerProcess } from './server-process.js';

const FAST_SYNC = { ...process.env, QUARRY_SYNC_INTERVAL_MS: '300' };
let repo: ReturnType<typeof indexedRepository>;
let source = '';
let data = '';

before(() => {
  repo = indexedRepository('example.com/served', 'quarry-kill-server');
  ({ source, data } = repo);
});

after(() => repo.remove());

test('a server killed while indexing leaves the old index serving; restarted, it finishes the job', async () => {
  writeFiles(source, generatedFiles('gen', 4000));
  commitAll(source, 'second');
  const before = new Set(segmentDirs(data));

  const first = await startServerProcess(data, [], FAST_SYNC);
  await until(() => segmentDirs(data).some((d) => !before.has(d)), 'the server to start indexing the new commit');
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const during = search(data, 'original_marker OR gen_marker');
  assert.deepEqual([during.paths, during.shardsFailed], [['old.txt'], 0]);

  const second = await startServerProcess(data, [], FAST_SYNC);
  try {
    await until(() => search(data, 'count:all gen_marker').paths.length === 4000, 'the restarted server to index the fetched commit', 60_000);
    // Polled: the line may still sit in the pipe while the synchronous searches above ran.
    await until(() => /index: example\.com\/served: the index is at [0-9a-f]{12}, the mirror at [0-9a-f]{12}; indexing/.test(second.output()), 'the restarted server to say why it indexes', 10_000);
    assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
    const listedSegments = (JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout) as { index: { segments: number } }[])[0]!.index.segments;
    assert.equal(segmentDirs(data).length, listedSegments, 'the killed run\'s segment is gone');
  } finally {
    assert.equal(await second.stop(), 0, second.output());
  }
});
