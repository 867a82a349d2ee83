/**
 * CPU time per phase, from /proc and process.cpuUsage(): the server (its threads, its live child
 * processes such as the compile guard's, and those it has reaped) against this load generator (both
 * callers' threads), so a figure shows who used the shared cores; and the server's split by thread
 * name (its pools name their threads: q-engine, q-engine-side, q-mcp, q-sandbox). Reads only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf } from './rss.js';

/** /proc reports CPU time in USER_HZ ticks, 100 per second on Linux whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

export interface CpuMark {
  readonly atMs: number;
  readonly serverSeconds: number;
  /** The server's main thread alone (HTTP, auth, planning, merging, GraphQL, the MCP tools). */
  readonly mainThreadSeconds: number;
  readonly generatorSeconds: number;
  /** Live threads' CPU by name ('main' for the main thread), and children's, live and ended (the compile guard's); what threads that ended used is in none. */
  readonly threadSeconds: Readonly<Record<string, number>>;
}

export interface CpuShare {
  /** Cores' worth used over the span (2 = both cores of this machine all the time). */
  readonly serverCores: number;
  /** At most 1: a main thread near it is the server's bottleneck. */
  readonly mainThreadCores: number;
  readonly generatorCores: number;
  /**
   * By thread name, children (the compile guard's processes, live and ended) and `threads ended`
   * (threads that ended during the span: the rest of the server's figure). A thread that ends takes its count with it.
   */
  readonly serverCoresBy: Readonly<Record<string, number>>;
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
  const reapedTicks = ticksOf(`/proc/${serverPid}/stat`, true) - ticksOf(`/proc/${serverPid}/stat`, false);
  const threadSeconds: Record<string, number> = {
    'children (live)': descendantsOf(serverPid).reduce((sum, child) => sum + ticksOf(`/proc/${child}/stat`, false), 0) / TICKS_PER_SECOND,
    'children (ended)': reapedTicks / TICKS_PER_SECOND,
  };
  for (const [name, threadTicks] of ticksByThreadName(serverPid)) threadSeconds[name] = (threadSeconds[name] ?? 0) + threadTicks / TICKS_PER_SECOND;
  return {
    atMs: performance.now(), serverSeconds: ticks / TICKS_PER_SECOND, mainThreadSeconds: mainTicks / TICKS_PER_SECOND, generatorSeconds: (own.user + own.system) / 1e6, threadSeconds,
  };
}

function ticksByThreadName(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const task of tasks) {
    let name: string;
    try {
      name = task === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    byName.set(name, (byName.get(name) ?? 0) + ticksOf(`/proc/${pid}/task/${task}/stat`, false));
  }
  return byName;
}

export function cpuBetween(from: CpuMark, to: CpuMark): CpuShare {
  const seconds = (to.atMs - from.atMs) / 1000;
  const cores = (pick: (mark: CpuMark) => number): number => (pick(to) - pick(from)) / seconds;
  const serverCoresBy: Record<string, number> = {};
  for (const name of new Set([...Object.keys(from.threadSeconds), ...Object.keys(to.threadSeconds)])) {
    // A name whose threads were all replaced meanwhile can go down: its ended threads are in `ended`.
    serverCoresBy[name] = Math.max(0, cores((m) => m.threadSeconds[name] ?? 0));
  }
  const named = Object.values(serverCoresBy).reduce((sum, c) => sum + c, 0);
  serverCoresBy['threads ended'] = Math.max(0, cores((m) => m.serverSeconds) - named);
  return { serverCores: cores((m) => m.serverSeconds), mainThreadCores: cores((m) => m.mainThreadSeconds), generatorCores: cores((m) => m.generatorSeconds), serverCoresBy };
}
