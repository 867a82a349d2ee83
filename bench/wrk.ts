/**
 * wrk runs for the loopback load benchmarks: GET, or POST one JSON body, at a fixed connection count and
 * read back requests per second, latency percentiles and errors. Loopback targets only.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';

export interface WrkResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly requests: number;
}

export interface WrkOptions {
  readonly connections: number;
  readonly seconds: number;
}

export function wrkPost(url: string, body: string, headers: Readonly<Record<string, string>>, options: WrkOptions): WrkResult {
  return wrkRun(url, [`wrk.method = "POST"`, `wrk.body = ${JSON.stringify(body)}`], headers, options);
}

export function wrkGet(url: string, headers: Readonly<Record<string, string>>, options: WrkOptions): WrkResult {
  return wrkRun(url, [], headers, options);
}

function wrkRun(url: string, requestLines: readonly string[], headers: Readonly<Record<string, string>>, options: WrkOptions): WrkResult {
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])[:/]/.test(url)) throw new Error(`load tests target loopback addresses only, not ${url}`);
  const dir = makeTempDir('quarry-wrk');
  const script = join(dir, 'request.lua');
  const headerLines = Object.entries(headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  writeFileSync(script, [...requestLines, ...headerLines, ''].join('\n'));
  const threads = Math.min(2, options.connections);
  const run = spawnSync('wrk', [`-t${threads}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '-s', script, url], { encoding: 'utf8' });
  removeDir(dir);
  if (run.error !== undefined) throw new Error(`wrk did not run (${run.error.message}): install it with apt-get install wrk`);
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const out = run.stdout;
  const ms = (label: string): number => {
    const m = new RegExp(`^\\s+${label}\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    if (!m) throw new Error(`no ${label} latency in wrk output:\n${out}`);
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0;
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + socketErrors;
  return { requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), p50Ms: ms('50%'), p99Ms: ms('99%'), errors, requests: Number(/(\d+) requests in/.exec(out)![1]) };
}
