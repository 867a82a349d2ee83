/**
 * One index run per repository at a time, across processes: an exclusive lock file naming its
 * owner by pid and start time. A lock whose owner is gone, a zombie, or a different process that
 * reused the pid is taken over, so a killed run never wedges the next one.
 */
import { linkSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { createError } from '../errors.js';
import { currentProcess, isRunning, type ProcessIdentity } from './process-identity.js';

export interface IndexLock {
  release(): void;
}

interface LockOwner extends ProcessIdentity {
  /** Tells this lock file apart from a later one by the same process. */
  readonly nonce: string;
}

const ATTEMPTS = 4;
/** Successor names nest once per run killed in the middle of a takeover; past this, give up as busy. */
const MAX_DEPTH = 8;

export function acquireIndexLock(path: string): IndexLock {
  const me: LockOwner = { ...currentProcess(), nonce: randomBytes(8).toString('hex') };
  const text = JSON.stringify(me);
  const busy = acquire(path, text, 0);
  if (busy !== null) throw busy;
  removeLeftovers(path);
  return { release: () => releaseIfOurs(path, text) };
}

/**
 * Takes `path` for `text`: creates it when absent, or replaces it when its owner is gone. Returns
 * null when taken, else the INDEX_BUSY error to throw.
 *
 * A stale lock is replaced only by whoever first creates its successor name (derived from the stale
 * content, so racers that judged the same file compete for one name), and only after reading it
 * unchanged: only the dead owner could have removed it and only the successor's holder replaces
 * it, so the file read is still the file replaced. Moving or unlinking a lock another run may have
 * just created is never done. A successor left by a run killed mid-takeover is itself a stale lock,
 * taken over the same way one level down.
 */
function acquire(path: string, text: string, depth: number): Error | null {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createWhole(path, text)) return null;
    const held = readOrNull(path);
    if (held === null) continue;
    const owner = parseOwner(held);
    if (owner !== null && isRunning(owner)) {
      return createError('INDEX_BUSY', `another index run (pid ${owner.pid}) holds ${path}`, { pid: owner.pid });
    }
    if (depth >= MAX_DEPTH) break;
    const successor = `${path}.${createHash('sha1').update(held).digest('hex').slice(0, 16)}.next`;
    const busy = acquire(successor, text, depth + 1);
    if (busy !== null) return busy;
    try {
      if (readOrNull(path) === held) {
        replaceWhole(path, text);
        return null;
      }
    } finally {
      releaseIfOurs(successor, text);
    }
  }
  return createError('INDEX_BUSY', `could not take the index lock ${path}: other runs keep replacing it`);
}

/**
 * Links a fully written temp file into place: the lock never exists half-written, so a reader
 * never mistakes a lock being created for a stale one.
 */
function createWhole(path: string, text: string): boolean {
  const temp = tempFor(path, text);
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOENT: a new owner cleared leftovers, this temp file among them; try again.
    if (code === 'EEXIST' || code === 'ENOENT') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Replaces the file at once (rename over it): readers see the old lock or the new one, never neither. */
function replaceWhole(path: string, text: string): void {
  const temp = tempFor(path, text);
  try {
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

function tempFor(path: string, text: string): string {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text);
  return temp;
}

function releaseIfOurs(path: string, text: string): void {
  if (readOrNull(path) === text) rmSync(path, { force: true });
}

/**
 * Temp files and takeover successors of runs killed between their steps; only the lock holder
 * clears them (a successor of an older lock can no longer replace this one: its holder finds the
 * lock changed).
 */
function removeLeftovers(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    if (name.startsWith(prefix) && (name.endsWith('.tmp') || name.endsWith('.stale') || name.endsWith('.next'))) rmSync(join(dirname(path), name), { force: true });
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The owner a lock names; a bare pid is what Quarry wrote before start times were recorded. */
function parseOwner(text: string): ProcessIdentity | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), startTime: null };
  try {
    const value = JSON.parse(trimmed) as Partial<LockOwner>;
    if (!Number.isInteger(value.pid) || (value.pid ?? 0) <= 0) return null;
    return { pid: value.pid!, startTime: typeof value.startTime === 'string' ? value.startTime : null };
  } catch {
    return null;
  }
}
