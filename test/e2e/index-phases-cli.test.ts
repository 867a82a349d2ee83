/**
 * `quarry index` as a user runs it, phase by phase: killed with SIGKILL during the symbols phase the
 * text index keeps serving and the next run finishes the symbols equal to a clean build; progress
 * shows as plain lines in a pipe and as a redrawn bar on a terminal (a pty from script(1)).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { BIN, killDuring, quarry, search, segmentDirs } from './cli-process.js';

const REPO = 'example.com/phases';
const dirs: string[] = [];
let source = '';

/** Enough TypeScript that parsing takes a few seconds on a busy machine: room to kill the symbols phase. */
function tsFiles(count: number): Record<string, string> {
  const files: Record<string, string> = { 'notes.txt': 'phases_marker\n' };
  for (let i = 0; i < count; i++) {
    files[`src/mod${i}.ts`] = `import { helper${(i + 1) % count} } from './mod${(i + 1) % count}';\n`
      + `export function helper${i}(x: number): number {\n  return helper${(i + 1) % count}(x) + ${i};\n}\n`
      + `export class Thing${i} {\n  value = ${i};\n  run(): number { return helper${i}(this.value); }\n}\n`.repeat(20);
  }
  return files;
}

interface ListedIndex { readonly symbolsPhase: string; readonly symbols?: unknown; readonly files: number }

function listed(data: string): { index: ListedIndex | null; indexing: unknown } {
  const r = quarry(data, ['repos', 'list', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { index: ListedIndex | null; indexing: unknown }[])[0]!;
}

function newData(): string {
  const data = makeTempDir('quarry-phases-data');
  dirs.push(data);
  assert.equal(quarry(data, ['repos', 'add', REPO, source]).status, 0);
  return data;
}

function progressPhase(data: string): string | null {
  const dir = join(data, 'index', 'segments');
  if (!existsSync(dir)) return null;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.progress.json'))) {
    try {
      const run = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { phases: { phase: string; finished: boolean; done: number }[] };
      const live = run.phases.find((p) => !p.finished && p.done > 0);
      if (live) return live.phase;
    } catch {
      // Replaced while read.
    }
  }
  return null;
}

before(() => {
  source = initRepo(makeTempDir('quarry-phases-src'));
  dirs.push(source);
  writeFiles(source, tsFiles(1500));
  commitAll(source, 'first');
});

after(() => dirs.forEach(removeDir));

test('killed during the symbols phase, the text index serves; the next run resumes and equals a clean build', async () => {
  const data = newData();
  const killed = await killDuring(data, ['index'], () => progressPhase(data) === 'symbols');
  assert.equal(killed.finished, false, 'the run finished before it could be killed');

  assert.deepEqual(search(data, 'phases_marker').paths, ['notes.txt'], 'the text phase was published before the kill');
  const during = listed(data);
  assert.equal(during.index?.symbolsPhase, 'pending');
  assert.equal(during.indexing, null, 'a killed run is not shown as running');

  const rerun = quarry(data, ['index']);
  assert.equal(rerun.status, 0, rerun.stderr);
  assert.match(rerun.stdout, /up to date; .*symbols in 1500 files/);
  const resumed = listed(data);
  assert.equal(resumed.index?.symbolsPhase, 'complete');
  assert.equal(segmentDirs(data).length, 1, `only the live segment remains: ${segmentDirs(data).join(', ')}`);

  const clean = newData();
  assert.equal(quarry(clean, ['index']).status, 0);
  assert.deepEqual(resumed.index, { ...listed(clean).index, commit: resumed.index!['commit' as keyof ListedIndex], indexedAt: resumed.index!['indexedAt' as keyof ListedIndex] });
  const query = 'type:symbol helper7';
  assert.deepEqual(search(data, query).paths, search(clean, query).paths);
  assert.ok(search(data, query).paths.includes('src/mod7.ts'));
});

test('in a pipe, progress is plain lines per phase with counts, rate and ETA', () => {
  const data = newData();
  const r = quarry(data, ['index']);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /\x1b\[|\r/, 'no terminal control codes in a pipe');
  const lines = r.stderr.trim().split('\n');
  for (const phase of ['text', 'symbols', 'history']) {
    assert.ok(lines.some((l) => l.startsWith(`${REPO}: started: ${phase} 0/`) || l.startsWith(`${REPO}: started: ${phase} 0 `)), `${phase} start in:\n${r.stderr}`);
    assert.ok(lines.some((l) => l.startsWith(`${REPO}: done: ${phase} `) && /\/s, took \d+s$/.test(l)), `${phase} end in:\n${r.stderr}`);
  }
  assert.ok(lines.some((l) => l.startsWith(`${REPO}: done: text 1501/1501 files`)), r.stderr);
  assert.ok(lines.some((l) => l.startsWith(`${REPO}: done: symbols 1501/1501 files`)), r.stderr);
});

test('on a terminal, progress is a bar redrawn in place, with rate and ETA', (t) => {
  const data = newData();
  const command = `"${process.execPath}" "${BIN}" index --text-only --data "${data}"`;
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, TERM: 'xterm' } });
  if (r.error) return t.skip(`script(1) is not available: ${r.error.message}`);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /\r\x1b\[Kexample\.com\/phases text {4}\[#{24}\] 100% 1501\/1501 files \([\d.]+ MiB\), [\d.]+ files\/s, took \d+s\r?\n/);
  assert.match(r.stdout, /\r\x1b\[Kexample\.com\/phases text {4}\[[#-]{24}\] +\d+% \d+\/1501 files/);
  assert.doesNotMatch(r.stdout, /phases symbols /, 'a text-only run has no symbols phase');
  assert.match(r.stdout, /symbols pending/);
});

test('many repositories: smallest first, all searchable before any symbols, one failure does not stop the rest', () => {
  const data = makeTempDir('quarry-queue-data');
  dirs.push(data);
  const small = initRepo(makeTempDir('quarry-queue-small'));
  const broken = initRepo(makeTempDir('quarry-queue-broken'));
  dirs.push(small, broken);
  writeFiles(small, { 'tiny.ts': 'export const tiny = 1;\n' });
  commitAll(small, 'small');
  writeFiles(broken, { 'b.ts': 'export const b = 2;\n' });
  commitAll(broken, 'broken');
  for (const [name, dir] of [['example.com/big', source], ['example.com/small', small], ['example.com/broken', broken]] as const) {
    assert.equal(quarry(data, ['repos', 'add', name, dir]).status, 0);
  }
  const record = (JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout) as { name: string; mirrorPath: string }[]).find((r) => r.name === 'example.com/broken')!;
  removeDir(join(data, record.mirrorPath));

  const r = quarry(data, ['index', '--no-fetch']);
  assert.equal(r.status, 1, 'a failed repository makes the exit status 1');
  assert.match(r.stderr, /quarry: example\.com\/broken: /);
  const summaries = r.stdout.trim().split('\n').map((l) => `${l.slice(0, l.indexOf(':'))} ${/symbols pending/.test(l) ? 'text' : 'symbols'}`);
  assert.deepEqual(summaries, ['example.com/small text', 'example.com/big text', 'example.com/small symbols', 'example.com/big symbols'], r.stdout);
  const listedRepos = JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout) as { name: string; index: ListedIndex | null }[];
  assert.deepEqual(listedRepos.map((x) => [x.name, x.index?.symbolsPhase ?? null]).sort(), [
    ['example.com/big', 'complete'], ['example.com/broken', null], ['example.com/small', 'complete'],
  ]);
});
