/**
 * Crash safety of index runs: `quarry index` killed with SIGKILL at many points (while its segment
 * is written, once it is sealed, after varying delays) leaves the previous index serving, and the
 * next run completes without a manual step, taking over the dead run's lock (also when a zombie
 * holds it) and removing its half-written segment.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { commitAll, writeFiles } from '../git/fixtures.js';
import { BIN, generatedFiles, indexedRepository, killDuring, quarry, search, segmentDirs, until } from './cli-process.js';

let repo: ReturnType<typeof indexedRepository>;
let source = '';
let data = '';

/** The live index's segment count, from `quarry repos list --json`. */
function liveSegments(): number {
  const r = quarry(data, ['repos', 'list', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { index: { segments: number } | null }[])[0]?.index?.segments ?? 0;
}

function assertRecovers(): void {
  const rerun = quarry(data, ['index']);
  assert.equal(rerun.status, 0, rerun.stderr);
  // The killed runs' half-written segments are gone: every segment directory is a live one.
  assert.equal(segmentDirs(data).length, liveSegments(), segmentDirs(data).join(', '));
}

before(() => {
  repo = indexedRepository('example.com/crash', 'quarry-crash');
  ({ source, data } = repo);
});

after(() => repo.remove());

test('killing an index run mid-way keeps the old index serving; the next run completes', async () => {
  writeFiles(source, generatedFiles('gen', 4000));
  commitAll(source, 'second');
  const before = new Set(segmentDirs(data));
  const killed = await killDuring(data, ['index'], () => segmentDirs(data).some((d) => !before.has(d)));
  assert.equal(killed.finished, false, 'the run finished before it could be killed');

  assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
  assert.deepEqual(search(data, 'gen_marker').paths, []);

  assertRecovers();
  assert.equal(search(data, 'count:all gen_marker').paths.length, 4000);
  assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
});

test('killed at any point, search answers from the old index or the new one, never a broken one', async () => {
  const sealed = (known: ReadonlySet<string>) => (): boolean => segmentDirs(data).some((d) => !known.has(d) && existsSync(join(data, 'index', 'segments', d, 'seal.json')));
  const started = (known: ReadonlySet<string>) => (): boolean => segmentDirs(data).some((d) => !known.has(d));
  const moments: [string, (known: ReadonlySet<string>) => number | (() => boolean)][] = [
    ['as the segment appears', started],
    ['once the segment is sealed, before the swap', sealed],
    ['after 300 ms', () => 300],
    ['after 900 ms', () => 900],
  ];
  for (const [round, [label, moment]] of moments.entries()) {
    writeFiles(source, { ...generatedFiles(`r${round}`, 800), [`round${round}.txt`]: `round_marker_${round}\n` });
    commitAll(source, `round ${round}`);
    const killed = await killDuring(data, ['index'], moment(new Set(segmentDirs(data))));
    const found = search(data, `original_marker OR round_marker_${round}`);
    assert.equal(found.shardsFailed, 0, `${label}: ${found.notices.join('; ')}`);
    const fromNew = found.paths.includes(`round${round}.txt`);
    assert.deepEqual(found.paths, fromNew ? ['old.txt', `round${round}.txt`] : ['old.txt'], label);
    if (killed.finished) assert.ok(fromNew, `${label}: the run finished, yet its index is not served`);
  }
  assertRecovers();
  const all = search(data, `count:all ${moments.map((_, i) => `round_marker_${i}`).join(' OR ')}`);
  assert.deepEqual(all.paths, moments.map((_, i) => `round${i}.txt`));
});

test('a run killed while its parent does not reap it (a zombie holding the lock) does not block the next', async (t) => {
  if (!existsSync('/proc/self/stat')) return t.skip('needs /proc');
  writeFiles(source, generatedFiles('zombie', 3000));
  commitAll(source, 'zombie');
  // The shell becomes `sleep`, which never waits for its children: the killed indexer stays a zombie.
  const parent = spawn('sh', ['-c', `"$0" "$1" index --data "$2" & echo $!; exec sleep 60`, process.execPath, BIN, data], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    // Repository ids are random: the lock is the one .lock file of the segments directory.
    const segments = join(data, 'index', 'segments');
    const heldBy = (): boolean => readdirSync(segments).some((name) => name.endsWith('.lock') && readFileSync(join(segments, name), 'utf8').includes(`"pid":${pid}`));
    await until(heldBy, 'the run to take its lock');
    process.kill(pid, 'SIGKILL');
    await until(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false, 'the run to become a zombie');

    const rerun = quarry(data, ['index']);
    assert.equal(rerun.status, 0, rerun.stderr);
    assert.equal(search(data, 'count:all zombie_marker').paths.length, 3000);
  } finally {
    parent.kill('SIGKILL');
  }
});
