/**
 * Lowers the scheduling priority of the calling thread alone (Linux: a thread id given to
 * setpriority names that thread). An unprivileged thread cannot raise it back, so only a thread
 * that stays in the low lane for good calls this. Elsewhere, or where it is refused, it does nothing.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of side-lane threads: CPU the other threads leave idle, and almost none while they are busy. */
export const SIDE_LANE_NICE = 19;

/**
 * SCHED_IDLE, below nice 19: the scheduler counts a core running only such threads as idle, so a
 * woken request thread is placed there and preempts at once, where a nice-19 thread may keep its
 * core until its slice ends. In the mixed-load bench beside a heavy caller, moving the side lane
 * from nice 19 alone to SCHED_IDLE took the others' throughput from 0.85 to 0.91 of their baseline
 * and read_file's p50 from 29 to 23 ms (17 alone). Node has no call for it; util-linux's chrt makes
 * the system call for a given thread id.
 */
const CHRT = 'chrt';
const CHRT_TIMEOUT_MS = 5000;

function thisThreadId(): number | null {
  // "<pid>/task/<tid>"
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  return Number.isInteger(tid) && tid > 0 ? tid : null;
}

/** True when this thread's priority was lowered. */
export function lowerThisThreadPriority(nice: number): boolean {
  try {
    const tid = thisThreadId();
    if (tid === null) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Moves this thread to SCHED_IDLE; true when it was. Blocks the thread for chrt's run (a few ms). */
export function idleThisThread(): boolean {
  try {
    const tid = thisThreadId();
    if (tid === null) return false;
    execFileSync(CHRT, ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: CHRT_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}
