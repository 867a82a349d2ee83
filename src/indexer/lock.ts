/**
 * One index run per repository at a time, across processes: an exclusive lock file naming its
 * owner by pid and start time. A lock whose owner is gone, a zombie, or a different process that
 * reused the pid is taken over, so a killed run never wedges the next one.
 */
import { linkSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
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

export function acquireIndexLock(path: string): IndexLock {
  const me: LockOwner = { ...currentProcess(), nonce: randomBytes(8).toString('hex') };
  const text = JSON.stringify(me);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createWhole(path, text)) {
      removeLeftovers(path);
      return { release: () => releaseIfOurs(path, text) };
    }
    const held = readOrNull(path);
    if (held === null) continue;
    const owner = parseOwner(held);
    if (owner !== null && isRunning(owner)) {
      throw createError('INDEX_BUSY', `another index run (pid ${owner.pid}) holds ${path}`, { pid: owner.pid });
    }
    takeAsideIfUnchanged(path, held);
  }
  throw createError('INDEX_BUSY', `could not take the index lock ${path}: other runs keep replacing it`);
}

/**
 * Links a fully written temp file into place: the lock never exists half-written, so a reader
 * never mistakes a lock being created for a stale one.
 */
function createWhole(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text);
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

/**
 * Removes a stale lock only if it is still the file judged stale: renamed aside first (atomic),
 * then compared. A fresh lock some other run created meanwhile is put back.
 */
function takeAsideIfUnchanged(path: string, judged: string): void {
  const aside = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const taken = readOrNull(aside);
  if (taken !== null && taken !== judged) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone else holds the path again; the loop re-examines whoever that is.
    }
  }
  rmSync(aside, { force: true });
}

function releaseIfOurs(path: string, text: string): void {
  if (readOrNull(path) === text) rmSync(path, { force: true });
}

/** Temp and set-aside files of runs killed between their steps; only the lock holder clears them. */
function removeLeftovers(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    if (name.startsWith(prefix) && (name.endsWith('.tmp') || name.endsWith('.stale'))) rmSync(join(dirname(path), name), { force: true });
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
