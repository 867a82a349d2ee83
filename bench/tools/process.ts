/**
 * Child processes for the benchmarks: run a tool under GNU time for wall seconds and peak RSS,
 * collect its output, or only count it. Every helper rejects on an exit code the caller did not allow.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ProcessOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Exit codes that mean success; default [0]. */
  readonly okCodes?: readonly number[];
}

export interface Collected {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly ms: number;
}

export interface Counted {
  readonly code: number;
  readonly lines: number;
  readonly bytes: number;
}

export interface TimedRun extends Collected {
  readonly wallSeconds: number;
  readonly peakRssKiB: number;
}

function spawnOptions(options: ProcessOptions): SpawnOptions {
  return { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] };
}

function checkExit(command: string, args: readonly string[], code: number | null, signal: NodeJS.Signals | null, stderr: string, ok: readonly number[]): number {
  if (code !== null && ok.includes(code)) return code;
  const how = code === null ? `signal ${signal}` : `exit code ${code}`;
  throw new Error(`${command} ${args.join(' ')} failed with ${how}: ${stderr.trim().slice(-2000)}`);
}

/** Runs to completion and keeps stdout (as bytes) and stderr. */
export function collect(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, spawnOptions(options));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8');
      try {
        const exit = checkExit(command, args, code, signal, stderr, options.okCodes ?? [0]);
        resolve({ code: exit, stdout: Buffer.concat(out), stderr, ms: performance.now() - started });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Runs to completion reading stdout through a pipe, as a consumer would, but keeping only counts. */
export function count(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<Counted> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, spawnOptions(options));
    let lines = 0;
    let bytes = 0;
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      try {
        const exit = checkExit(command, args, code, signal, Buffer.concat(err).toString('utf8'), options.okCodes ?? [0]);
        resolve({ code: exit, lines, bytes });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Runs under `/usr/bin/time`, which writes its figures to a file so the tool's stderr stays its own. */
export async function timed(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<TimedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-time-'));
  const figures = join(dir, 'time.txt');
  try {
    const run = await collect('/usr/bin/time', ['-o', figures, '-f', '%e %M', command, ...args], options);
    const [wall = '', rss = ''] = readFileSync(figures, 'utf8').trim().split('\n').pop()!.split(' ');
    if (!/^\d+(\.\d+)?$/.test(wall) || !/^\d+$/.test(rss)) throw new Error(`unreadable /usr/bin/time output for ${command}: "${wall} ${rss}"`);
    return { ...run, wallSeconds: Number(wall), peakRssKiB: Number(rss) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** First line of a command's output, for version records; "unavailable" when it cannot run. */
export async function firstLine(command: string, args: readonly string[]): Promise<string> {
  try {
    const run = await collect(command, args);
    return run.stdout.toString('utf8').split('\n')[0]!.trim();
  } catch {
    return 'unavailable';
  }
}
