/**
 * Lowers the scheduling priority of the calling thread alone (Linux: a thread id given to
 * setpriority names that thread). An unprivileged thread cannot raise it back, so only a thread
 * that stays in the low lane for good calls this. Elsewhere, or where it is refused, it does nothing.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of side-lane threads: CPU the other threads leave idle, and almost none while they are busy. */
export const SIDE_LANE_NICE = 19;


/** True when this thread's priority was lowered. */
export function lowerThisThreadPriority(nice: number): boolean {
  try {
    // "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
