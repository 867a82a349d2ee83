/**
 * The run record: what machine and which versions produced the figures, written with the raw samples
 * (raw.json) and the printed tables (summary.md) under bench/runs/<date>-<machine>/. Never commits.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, hostname, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadAddon } from './floors.bench.js';
import { REPO_ROOT } from './paths.js';
import { collect, firstLine } from './tools/process.js';
import { rgVersion } from './tools/ripgrep.js';

export interface MachineInfo {
  readonly hostname: string;
  /** Names the run folder: $QUARRY_BENCH_MACHINE, else architecture, cores and memory. */
  readonly kind: string;
  readonly nproc: string;
  readonly cpuModel: string;
  readonly memTotalBytes: number;
  readonly freeG: string;
  readonly kernel: string;
}

export interface Versions {
  readonly node: string;
  readonly rg: string;
  readonly git: string;
  readonly codesearch: string;
  readonly linuxSource: string;
  readonly hyperscan: string;
  readonly tinybench: string;
  readonly quarryCommit: string;
  /** Uncommitted changes to src/ or native/ when the run started. */
  readonly quarryDirty: boolean;
}

function cpuModel(): string {
  const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
  return line ? line.slice(line.indexOf(':') + 1).trim() : 'unknown';
}

async function commandOutput(command: string, args: readonly string[]): Promise<string> {
  try {
    return (await collect(command, args)).stdout.toString('utf8').trim();
  } catch {
    return 'unavailable';
  }
}

export async function machineInfo(env: NodeJS.ProcessEnv = process.env): Promise<MachineInfo> {
  const memTotalBytes = totalmem();
  const cores = availableParallelism();
  const kind = env['QUARRY_BENCH_MACHINE']?.trim() || `${arch()}-${cores}cpu-${Math.round(memTotalBytes / 2 ** 30)}gib`;
  return {
    hostname: hostname(), kind, nproc: await firstLine('nproc', []), cpuModel: cpuModel(), memTotalBytes,
    freeG: await commandOutput('free', ['-g']), kernel: release(),
  };
}

export async function versions(): Promise<Versions> {
  const tinybench = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'tinybench', 'package.json'), 'utf8')) as { version: string };
  // --no-optional-locks: never hold the index lock while someone else may be committing.
  const dirty = await commandOutput('git', ['--no-optional-locks', '-C', REPO_ROOT, 'status', '--porcelain', '--untracked-files=no', '--', 'src', 'native']);
  return {
    node: process.version,
    rg: await rgVersion(),
    git: await firstLine('git', ['--version']),
    codesearch: await firstLine('dpkg-query', ['-W', '-f=${Version}\n', 'codesearch']),
    linuxSource: await firstLine('dpkg-query', ['-W', '-f=${Version}\n', 'linux-source-6.1']),
    hyperscan: loadAddon().version(),
    tinybench: tinybench.version,
    quarryCommit: await firstLine('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']),
    quarryDirty: dirty !== '' && dirty !== 'unavailable',
  };
}

/** bench/runs/<YYYY-MM-DD>-<kind>[-quick]; a second run on the same day replaces the first. */
export function runDir(machine: MachineInfo, quick: boolean, now: Date = new Date()): string {
  return join(REPO_ROOT, 'bench', 'runs', `${now.toISOString().slice(0, 10)}-${machine.kind}${quick ? '-quick' : ''}`);
}

/** Indented JSON, except that arrays of numbers (the samples) stay on one line each. */
function rawJson(raw: unknown): string {
  return JSON.stringify(raw, null, 2).replace(/\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g, (_, items: string) => `[${items.split(/,\s+/).join(',')}]`);
}

/**
 * A side benchmark's record beside the main run's: `<name>.md` (the printed table) and
 * `<name>.json` (its figures) in today's run folder for this machine.
 */
export async function writeSideRun(name: string, summary: string, figures: unknown, replacer?: (key: string, value: unknown) => unknown): Promise<void> {
  const dir = runDir(await machineInfo(), false);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), summary);
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(figures, replacer, 2)}\n`);
}

export function writeRun(dir: string, raw: unknown, summary: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'raw.json'), `${rawJson(raw)}\n`);
  writeFileSync(join(dir, 'summary.md'), summary);
}
