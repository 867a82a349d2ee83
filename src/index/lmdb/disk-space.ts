/**
 * Keeps LMDB writes from meeting a full disk: lmdb-js cannot recover from a failed commit (the
 * environment never closes again, its error surfaces as an unhandled rejection), so writers ask
 * here before they queue bytes and stop with DISK_FULL while the disk still has room.
 */
import { statfsSync } from 'node:fs';
import { createError, type QuarryError } from '../../errors.js';

const PAGE_BYTES = 4096;
/** Room kept free for LMDB's own pages (branches, free list, meta) and the catalog's next write. */
const MARGIN_BYTES = 1024 * 1024;

/** What a value of `valueBytes` adds to an LMDB file: big values take whole overflow pages. */
export function lmdbBytes(valueBytes: number): number {
  const withHeader = valueBytes + 16;
  return withHeader > PAGE_BYTES / 2 ? Math.ceil(withHeader / PAGE_BYTES) * PAGE_BYTES : withHeader;
}

export function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;

/**
 * DISK_FULL naming the disk by a directory on it: `shortfall` says how the write stands, e.g.
 * "the new index segment needs at least 40.0 MiB, 3.1 MiB are free".
 */
export function diskFull(dir: string, shortfall: string, details: Record<string, unknown> = {}): QuarryError {
  return createError('DISK_FULL', `no space left on the disk holding ${dir}: ${shortfall}; the previous index keeps serving; free space and index again`, details);
}

/** Throws DISK_FULL unless `bytes` (an estimate of what `what` will write) fit on the disk now. */
export function requireSpace(dir: string, bytes: number, what: string): void {
  const free = freeBytes(dir);
  const needed = bytes + margin(bytes);
  if (needed > free) throw diskFull(dir, `${what} needs at least ${mib(needed)}, ${mib(free)} are free`, { neededBytes: needed, freeBytes: free });
}

/** The DISK_FULL for a write that already failed for want of space. */
export function writeFailedFull(dir: string, free: number, what: string): QuarryError {
  return diskFull(dir, `${what} failed with ${mib(free)} free`, { freeBytes: free });
}

/** Space accounting for one writer: the free space last measured, and what was queued since. */
export class DiskSpace {
  private free: number;
  private queued = 0;
  private written = 0;

  constructor(private readonly dir: string, private readonly what: string) {
    this.free = freeBytes(dir);
  }

  /** True when `bytes` more fit in the space last measured, leaving the margin. */
  fits(bytes: number): boolean {
    return this.queued + bytes + margin(this.queued + bytes) <= this.free;
  }

  add(bytes: number): void {
    this.queued += bytes;
    this.written += bytes;
  }

  /** Measures again (call once queued writes are on disk); DISK_FULL unless `bytes` fit. */
  require(bytes: number): void {
    this.free = freeBytes(this.dir);
    this.queued = 0;
    if (!this.fits(bytes)) {
      throw diskFull(this.dir, `${mib(this.free)} left after writing ${mib(this.written)} of ${this.what}`, { freeBytes: this.free, writtenBytes: this.written });
    }
  }
}

function margin(bytes: number): number {
  return MARGIN_BYTES + Math.ceil(bytes / 16);
}
