/**
 * Resident memory of the server under load, from /proc: the server process (its worker threads share
 * its VmRSS) and its child processes (the compile guard, git), sampled on a timer. Reads only.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface RssSample {
  readonly atSeconds: number;
  readonly serverKiB: number;
  /** Every descendant process together (compile guard children, git readers). */
  readonly childrenKiB: number;
  readonly children: number;
}

function vmRssKiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(/(\d+)/.exec(line)![1]) : 0;
  } catch {
    return 0;
  }
}

/** Children of every thread of `pid` (a thread that forks is their parent, not the main thread). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

export function descendantsOf(pid: number): number[] {
  const direct = childrenOf(pid);
  return [...direct, ...direct.flatMap(descendantsOf)];
}

export function sampleRss(pid: number, atSeconds: number): RssSample {
  const descendants = descendantsOf(pid);
  return { atSeconds, serverKiB: vmRssKiB(pid), childrenKiB: descendants.reduce((sum, child) => sum + vmRssKiB(child), 0), children: descendants.length };
}

export interface RssSampler {
  readonly samples: readonly RssSample[];
  /** Takes one sample now (e.g. at a phase boundary) and returns it. */
  now(): RssSample;
  stop(): void;
}

export function startRssSampler(pid: number, everyMs: number): RssSampler {
  const started = performance.now();
  const samples: RssSample[] = [];
  const take = (): RssSample => {
    const sample = sampleRss(pid, (performance.now() - started) / 1000);
    samples.push(sample);
    return sample;
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples, now: take, stop: () => clearInterval(timer) };
}
