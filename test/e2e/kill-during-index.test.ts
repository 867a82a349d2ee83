/**
 * Crash safety: an index run killed mid-way leaves the previous index serving, and the next run
 * completes, taking over the dead run's lock and removing its half-written segment.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));
const NAME = 'example.com/crash';
let source = '';
let data = '';

function quarry(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8', maxBuffer: 256 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function searchPaths(query: string): string[] {
  const r = quarry('search', '--json', query);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; path?: string }).filter((m) => m.type !== 'progress').map((m) => m.path ?? '').sort();
}

function segmentDirs(): string[] {
  return readdirSync(join(data, 'index', 'segments')).filter((n) => !n.endsWith('.lock'));
}

before(() => {
  source = makeTempDir('quarry-crash-src');
  data = makeTempDir('quarry-crash-data');
  initRepo(source);
  writeFiles(source, { 'old.txt': 'original_marker\n' });
  commitAll(source, 'first');
  assert.equal(quarry('repos', 'add', NAME, source).status, 0);
  assert.equal(quarry('index').status, 0);
});

after(() => {
  removeDir(source);
  removeDir(data);
});

test('killing an index run mid-way keeps the old index serving; the next run completes', async () => {
  const many: Record<string, string> = {};
  for (let i = 0; i < 4000; i++) many[`gen/f${i}.txt`] = `generated ${i} new_marker ${'padding '.repeat(200)}\n`;
  writeFiles(source, many);
  commitAll(source, 'second');
  const before = new Set(segmentDirs());
  const child = spawn(process.execPath, [BIN, 'index', '--data', data], { stdio: 'ignore' });
  const deadline = Date.now() + 60_000;
  while (segmentDirs().every((d) => before.has(d))) {
    assert.ok(Date.now() < deadline, 'index run never started a segment');
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  assert.deepEqual(searchPaths('original_marker'), ['old.txt']);
  assert.deepEqual(searchPaths('new_marker'), []);
  assert.ok(existsSync(join(data, 'index', 'segments')), 'segments dir exists');

  const rerun = quarry('index');
  assert.equal(rerun.status, 0, rerun.stderr);
  assert.equal(searchPaths('count:all new_marker').length, 4000);
  assert.deepEqual(searchPaths('original_marker'), ['old.txt']);
  // The old segment plus the rerun's new one; the killed run's half-written segment is gone.
  const live = segmentDirs();
  assert.equal(live.length, 2, live.join(', '));
  assert.equal(live.filter((d) => before.has(d)).length, 1);
});
