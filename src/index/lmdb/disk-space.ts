/**
 * Keeps LMDB writes from meeting a full disk. lmdb-js does not survive a failed commit (its error
 * surfaces as an unhandled rejection, the environment never closes again, and under load its heap
 * was seen corrupted), so writers ask here before they queue bytes: DISK_FULL while the disk still
 * has room, and on a nearly full disk the file is first extended with written (allocated) zeros,
 * so the writes LMDB then makes never need new space even if another writer takes the rest.
 */
import { closeSync, openSync, statfsSync, statSync, truncateSync, writeSync } from 'node:fs';
import type { RootDatabase } from 'lmdb';
import { createError, errorMessage, isQuarryError, type QuarryError } from '../../errors.js';

const PAGE_BYTES = 4096;
/** Room kept free for LMDB's own pages (branches, free list, meta) and the catalog's next write. */
const MARGIN_BYTES = 1024 * 1024;
/** Below this much free space, writes go into space reserved ahead of them. */
const TIGHT_BYTES = 1024 * 1024 * 1024;
/** Reserved at least this far ahead, so reserving is not done per document. */
const RESERVE_STEP_BYTES = 16 * 1024 * 1024;
const ZEROS = Buffer.alloc(1024 * 1024);

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

/**
 * A raw "no space" failure from a write outside the segment writers (the history and commit
 * indexes write after the text phase), as the same DISK_FULL; any other error unchanged.
 */
export function asDiskFull(err: unknown, dir: string, what: string): unknown {
  if (isQuarryError(err)) return err;
  if ((err as NodeJS.ErrnoException | null)?.code !== 'ENOSPC' && !/no space left on device/i.test(errorMessage(err))) return err;
  return writeFailedFull(dir, freeBytes(dir), what);
}

/** The DISK_FULL for a write that already failed for want of space. */
export function writeFailedFull(dir: string, free: number, what: string): QuarryError {
  return diskFull(dir, `${what} failed with ${mib(free)} free`, { freeBytes: free });
}

/** The end of the data LMDB has committed to `env`'s file (no write may be in flight). */
export function committedEnd(env: RootDatabase): number {
  const stats = env.getStats() as { readonly lastPageNumber: number; readonly pageSize: number };
  return (stats.lastPageNumber + 1) * stats.pageSize;
}

/**
 * Space accounting for one LMDB file being written: how much may be queued before the writes
 * must settle and the disk be measured (or space reserved) again.
 */
export class DiskSpace {
  /** Bytes that may be queued past the committed end: free space, or what is reserved. */
  private room: number;
  private queued = 0;
  private written = 0;
  /** How far the file is allocated by reserved zeros (0 while the disk has room). */
  private reservedEnd = 0;

  constructor(private readonly disk: string, private readonly file: string, private readonly what: string) {
    const free = freeBytes(disk);
    // On a tight disk nothing is queued before the first require() has reserved room.
    this.room = free >= TIGHT_BYTES ? free : 0;
  }

  /** True when `bytes` more may be queued now. */
  fits(bytes: number): boolean {
    return this.queued + bytes + margin(this.queued + bytes) <= this.room;
  }

  add(bytes: number): void {
    this.queued += bytes;
    this.written += bytes;
  }

  /**
   * Call once the queued writes are committed, with the committed end of the file: measures the
   * disk again, on a tight disk reserves room for `bytes` and more, and throws DISK_FULL unless
   * `bytes` fit.
   */
  require(bytes: number, end: number): void {
    this.queued = 0;
    const free = freeBytes(this.disk);
    if (free >= TIGHT_BYTES && this.reservedEnd === 0) {
      this.room = free;
    } else {
      const wanted = end + bytes + margin(bytes) + RESERVE_STEP_BYTES;
      if (wanted > this.reservedEnd) this.reserve(Math.max(end, this.reservedEnd), Math.min(wanted, end + free - MARGIN_BYTES));
      this.room = Math.max(0, this.reservedEnd - end);
    }
    if (!this.fits(bytes)) {
      throw diskFull(this.disk, `${mib(free)} left after writing ${mib(this.written)} of ${this.what}`, { freeBytes: free, writtenBytes: this.written });
    }
  }

  /** Gives back reserved space LMDB did not use (call once the environment is closed). */
  release(end: number): void {
    if (this.reservedEnd > end && statSync(this.file).size > end) truncateSync(this.file, end);
  }

  private reserve(from: number, to: number): void {
    if (to <= from) return;
    const fd = openSync(this.file, 'r+');
    try {
      for (let at = from; at < to; at += ZEROS.length) writeSync(fd, ZEROS, 0, Math.min(ZEROS.length, to - at), at);
      this.reservedEnd = to;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      throw diskFull(this.disk, `another writer took the space while ${this.what} was reserving it`);
    } finally {
      closeSync(fd);
    }
  }
}

function margin(bytes: number): number {
  return MARGIN_BYTES + Math.ceil(bytes / 16);
}
