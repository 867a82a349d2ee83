/**
 * The `quarry` command as real processes over one data directory, for fault tests: run to the
 * end, or killed with SIGKILL after a delay or once a condition on disk holds.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

export const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SearchOutcome {
  readonly paths: string[];
  readonly shardsFailed: number;
  /** Titles and messages of the skipped notices. */
  readonly notices: string[];
}

export function quarry(data: string, args: readonly string[], options: { readonly input?: string } = {}): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8', maxBuffer: 256 << 20, ...(options.input === undefined ? {} : { input: options.input }) });
  // A run that a signal ended, or that never started, says so where a failed assertion shows stderr.
  const ended = r.signal !== null ? `\n(quarry ${args.join(' ')} was ended by ${r.signal})` : r.error !== undefined ? `\n(quarry ${args.join(' ')} did not run: ${r.error.message})` : '';
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${ended}` };
}

/** A git repository holding `files`, made in a temp dir (listed in `dirs` for removal) and added to `data` as `name`. */
export function addRepoOfFiles(data: string, name: string, files: Record<string, string>, dirs: string[]): void {
  const dir = makeTempDir('quarry-cli-src');
  dirs.push(dir);
  initRepo(dir);
  writeFiles(dir, files);
  commitAll(dir, 'initial');
  const added = quarry(data, ['repos', 'add', name, dir]);
  assert.equal(added.status, 0, added.stderr);
}

/** `quarry search --json`: the matched paths (sorted) and what the search said about failures. */
export function search(data: string, query: string): SearchOutcome {
  const r = quarry(data, ['search', '--json', query]);
  assert.equal(r.status, 0, `search ${query} exited ${String(r.status)}: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as {
    type: string; path?: string; stats?: { shardsFailed: number }; skipped?: { title: string; message: string }[];
  });
  const progress = lines.find((l) => l.type === 'progress' && l.stats);
  return {
    paths: lines.filter((l) => l.type !== 'progress').map((l) => l.path ?? '').sort(),
    shardsFailed: progress?.stats?.shardsFailed ?? 0,
    notices: (progress?.skipped ?? []).map((s) => `${s.title}: ${s.message}`),
  };
}

export function segmentDirs(data: string): string[] {
  const dir = join(data, 'index', 'segments');
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.includes('.lock') && !n.includes('.progress.json')) : [];
}

export async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Starts `quarry ARGS` and kills it with SIGKILL once `when` holds (polled every 5 ms) or after
 * `when` milliseconds; resolves with what it printed and whether it had already finished.
 */
export async function killDuring(data: string, args: readonly string[], when: number | (() => boolean)): Promise<CliRun & { readonly finished: boolean }> {
  const child = spawn(process.execPath, [BIN, ...args, '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  if (typeof when === 'number') await new Promise((r) => setTimeout(r, when));
  else await until(() => finished || when(), 'the moment to kill');
  const wasFinished = finished;
  child.kill('SIGKILL');
  const status = await exited;
  return { status, stdout, stderr, finished: wasFinished };
}

/** A source repository holding old.txt ("original_marker"), registered as `name` in a fresh data directory and indexed. */
export function indexedRepository(name: string, label: string): { readonly source: string; readonly data: string; remove(): void } {
  const source = initRepo(makeTempDir(`${label}-src`));
  const data = makeTempDir(`${label}-data`);
  writeFiles(source, { 'old.txt': 'original_marker\n' });
  commitAll(source, 'first');
  assert.equal(quarry(data, ['repos', 'add', name, source]).status, 0);
  assert.equal(quarry(data, ['index']).status, 0);
  return {
    source,
    data,
    remove() {
      removeDir(source);
      removeDir(data);
    },
  };
}

/** `count` padded text files under `label/`, each holding "<label>_marker". */
export function generatedFiles(label: string, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`${label}/f${i}.txt`] = `generated ${i} ${label}_marker ${'padding '.repeat(200)}\n`;
  return files;
}
