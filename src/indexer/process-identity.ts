/**
 * Which process instance a pid names: the pid plus its start time from /proc/<pid>/stat, so a
 * recorded owner is recognised as gone once it exits, lingers as a zombie, or its pid is reused.
 */
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat); null where /proc is unavailable. */
  readonly startTime: string | null;
}

interface ProcStat {
  readonly state: string;
  readonly startTime: string;
}

/** State and start time of a pid, or null when it has no /proc entry. */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name sits in parentheses and may itself hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state !== undefined && startTime !== undefined ? { state, startTime } : null;
}

function hasProc(): boolean {
  return procStat(process.pid) !== null;
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: procStat(process.pid)?.startTime ?? null };
}

/**
 * True while the very process `owner` names still runs. A zombie (killed, not yet reaped by its
 * parent) is not running; a pid now held by another process is not the owner.
 */
export function isRunning(owner: ProcessIdentity): boolean {
  if (owner.pid === process.pid) return owner.startTime === null || owner.startTime === currentProcess().startTime;
  if (hasProc()) {
    const stat = procStat(owner.pid);
    if (stat === null || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
    return owner.startTime === null || owner.startTime === stat.startTime;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
