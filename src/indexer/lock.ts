/**
 * One index run per repository at a time, across processes: an exclusive lock file holding the
 * owner's pid. A lock left by a killed process (pid gone) is taken over, so a crash never wedges.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createError } from '../errors.js';

export interface IndexLock {
  release(): void;
}

export function acquireIndexLock(path: string): IndexLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw createError('INDEX_BUSY', `another index run (pid ${owner}) holds ${path}`);
      }
      rmSync(path, { force: true });
    }
  }
  throw createError('INDEX_BUSY', `could not take the index lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
