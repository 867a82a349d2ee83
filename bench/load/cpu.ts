/**
 * CPU time per phase, from /proc and process.cpuUsage(): the server (its threads, its live child
 * processes such as the compile guard, and those it has reaped) against this load generator (both
 * callers' threads), so a figure shows who used the shared cores. Reads only.
 */
import { readFileSync } from 'node:fs';
import { descendantsOf } from './rss.js';

/** /proc reports CPU time in USER_HZ ticks, 100 per second on Linux whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

export interface CpuMark {
  readonly atMs: number;
  readonly serverSeconds: number;
  /** The server's main thread alone (HTTP, auth, planning, merging, GraphQL, the MCP tools). */
  readonly mainThreadSeconds: number;
  readonly generatorSeconds: number;
}

export interface CpuShare {
  /** Cores' worth used over the span (2 = both cores of this machine all the time). */
  readonly serverCores: number;
  /** At most 1: a main thread near it is the server's bottleneck. */
  readonly mainThreadCores: number;
  readonly generatorCores: number;
}

/** utime + stime, plus cutime + cstime (reaped children) when `withReaped`. */
function ticksOf(statPath: string, withReaped: boolean): number {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    // Fields 14-17 of proc(5) (utime, stime, cutime, cstime); `fields` starts at field 3.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15) as [number, number, number, number];
    return utime + stime + (withReaped ? cutime + cstime : 0);
  } catch {
    return 0;
  }
}

export function markCpu(serverPid: number): CpuMark {
  const ticks = ticksOf(`/proc/${serverPid}/stat`, true) + descendantsOf(serverPid).reduce((sum, child) => sum + ticksOf(`/proc/${child}/stat`, false), 0);
  // The main thread's task id is the process id.
  const mainTicks = ticksOf(`/proc/${serverPid}/task/${serverPid}/stat`, false);
  const own = process.cpuUsage();
  return {
    atMs: performance.now(), serverSeconds: ticks / TICKS_PER_SECOND, mainThreadSeconds: mainTicks / TICKS_PER_SECOND, generatorSeconds: (own.user + own.system) / 1e6,
  };
}

export function cpuBetween(from: CpuMark, to: CpuMark): CpuShare {
  const seconds = (to.atMs - from.atMs) / 1000;
  const cores = (pick: (mark: CpuMark) => number): number => (pick(to) - pick(from)) / seconds;
  return { serverCores: cores((m) => m.serverSeconds), mainThreadCores: cores((m) => m.mainThreadSeconds), generatorCores: cores((m) => m.generatorSeconds) };
}
