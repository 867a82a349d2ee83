/**
 * A segment's seal (format.ts): its LMDB file sizes, the CRCs of its LMDB structure pages and of
 * its columns, written after everything else and checked before a reader maps any file; and the marker a reader leaves on a damaged
 * segment. Errors name the segment by id, never by path: search callers may see them.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { createError, errorMessage, isQuarryError, type QuarryError } from '../../errors.js';
import { CONTENT_FILE, DAMAGED_FILE, FORMAT_VERSION, META_FILE, SEAL_FILE } from '../format.js';

export interface SealedFile {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface Seal {
  readonly formatVersion: number;
  /** File name → size in bytes and modification time as sealed. */
  readonly files: Readonly<Record<string, SealedFile>>;
  /** Column name → CRC-32. */
  readonly columns: Readonly<Record<string, number>>;
  /** File name → [first page, page count, CRC-32] of each run of its structure pages (see structurePages). */
  readonly pages: Readonly<Record<string, readonly (readonly [number, number, number])[]>>;
}

/** LMDB's page layout (liblmdb mdb.c, as lmdb-js builds it): a 24-byte header, then the page. */
const LMDB_MAGIC = 0xbeefc0de;
const MAGIC_OFFSET = 24;
const PAGE_SIZE_OFFSET = 48;
const FLAGS_OFFSET = 18;
const OVERFLOW_COUNT_OFFSET = 20;
const P_OVERFLOW = 0x04;
const META_PAGES = 2;
/** Longest run read at once: 4 MiB of 4 KiB pages. */
const MAX_RUN_PAGES = 1024;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

/** LMDB's own words for a damaged file (lmdb-js puts the code name in its messages). */
const LMDB_DAMAGE = /MDB_(CORRUPTED|INVALID|PAGE_NOTFOUND|VERSION_MISMATCH|BAD_TXN|BAD_VALSIZE)|Input\/output error/;

export function damaged(dir: string, reason: string): QuarryError {
  const segment = basename(dir);
  return createError('INDEX_CORRUPT', `index segment ${segment} is damaged: ${reason}; the next index run rebuilds it`, { segment, reason });
}

/** Writes the seal through a temp file and fsyncs it: once it exists, the segment is complete. */
export function writeSeal(dir: string, columns: ReadonlyMap<string, Uint8Array>): void {
  const seal: Seal = {
    formatVersion: FORMAT_VERSION,
    files: Object.fromEntries([META_FILE, CONTENT_FILE].map((name) => {
      const { size, mtimeMs } = statSync(join(dir, name));
      return [name, { size, mtimeMs }];
    })),
    columns: Object.fromEntries([...columns].map(([name, bytes]) => [name, crc32(bytes)])),
    pages: Object.fromEntries([META_FILE, CONTENT_FILE].map((name) => [name, structurePages(join(dir, name))])),
  };
  const temp = join(dir, `${SEAL_FILE}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, JSON.stringify(seal));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, join(dir, SEAL_FILE));
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * The seal of a segment that is not marked damaged and whose files all have their sealed sizes;
 * INDEX_CORRUPT (the segment marked damaged) otherwise.
 */
export function readSeal(dir: string): Seal {
  if (statOf(dir) === null) {
    throw createError('INDEX_CORRUPT', `index segment ${basename(dir)} no longer exists (a newer index run replaced it); search again`, { segment: basename(dir) });
  }
  const marked = textOf(join(dir, DAMAGED_FILE));
  if (marked !== null) throw damaged(dir, marked.trim() || 'marked damaged');
  const text = textOf(join(dir, SEAL_FILE));
  if (text === null) fail(dir, `${SEAL_FILE} is missing (the segment was built by an older Quarry or never finished)`);
  let seal: Seal;
  try {
    seal = JSON.parse(text) as Seal;
  } catch {
    fail(dir, `${SEAL_FILE} is not valid JSON`);
  }
  if (typeof seal.files !== 'object' || typeof seal.columns !== 'object' || seal.files === null || seal.columns === null) fail(dir, `${SEAL_FILE} is incomplete`);
  if (seal.formatVersion !== FORMAT_VERSION) {
    throw createError('INDEX_FORMAT', `index segment ${basename(dir)} has format ${String(seal.formatVersion)}, this Quarry reads ${FORMAT_VERSION}; re-index`);
  }
  for (const name of [META_FILE, CONTENT_FILE]) {
    const sealed = seal.files[name];
    const file = statOf(join(dir, name));
    if (file === null) fail(dir, `${name} is missing`);
    if (sealed === undefined || file.size !== sealed.size) {
      fail(dir, `${name} is ${file.size} bytes, sealed at ${String(sealed?.size)}${sealed !== undefined && file.size < sealed.size ? ' (truncated)' : ''}`);
    }
    // Reading every structure page costs a pass over a large part of the file: done only when
    // the file was written since it was sealed (damage from outside that keeps the size).
    const damage = file.mtimeMs === sealed.mtimeMs ? null : pageDamage(join(dir, name), seal.pages?.[name]);
    if (damage !== null) fail(dir, `${name} ${damage}`);
  }
  return seal;
}

/**
 * Runs of the pages LMDB navigates (meta, branch and leaf pages: everything but overflow pages,
 * which hold big values whole), as [first page, page count, CRC-32]. Damage there can send LMDB
 * outside its map or trip an assertion that aborts the whole process, so a reader checks these
 * before LMDB sees the file; values in overflow pages are checked by their own CRCs on first read.
 */
function structurePages(path: string): [number, number, number][] {
  const fd = openSync(path, 'r');
  try {
    const pageSize = metaPageSize(fd);
    if (pageSize === 0) throw createError('INTERNAL', `${basename(path)} is not an LMDB file`);
    const pageCount = Math.floor(fstatSync(fd).size / pageSize);
    // Sequential reads in big chunks: one read per page would cost a syscall per page.
    const chunk = Buffer.allocUnsafe(Math.max(1, Math.floor(READ_CHUNK_BYTES / pageSize)) * pageSize);
    let chunkFirst = 0;
    let chunkPages = 0;
    const pageAt = (pgno: number): Buffer => {
      if (pgno < chunkFirst || pgno >= chunkFirst + chunkPages) {
        chunkFirst = pgno;
        chunkPages = Math.floor(readSync(fd, chunk, 0, chunk.length, pgno * pageSize) / pageSize);
      }
      const at = (pgno - chunkFirst) * pageSize;
      return chunk.subarray(at, at + pageSize);
    };
    const runs: [number, number, number][] = [];
    let run: [number, number, number] | null = null;
    for (let pgno = 0; pgno < pageCount;) {
      const page = pageAt(pgno);
      if (pgno >= META_PAGES && (page.readUInt16LE(FLAGS_OFFSET) & P_OVERFLOW) !== 0) {
        run = null;
        pgno += Math.max(1, page.readUInt32LE(OVERFLOW_COUNT_OFFSET));
        continue;
      }
      if (run === null || run[1] === MAX_RUN_PAGES) runs.push((run = [pgno, 0, 0]));
      run[1]++;
      run[2] = crc32(page, run[2]);
      pgno++;
    }
    return runs;
  } finally {
    closeSync(fd);
  }
}

/** What is wrong with the sealed structure pages of `path`, or null. */
function pageDamage(path: string, runs: readonly (readonly [number, number, number])[] | undefined): string | null {
  if (!Array.isArray(runs) || runs.length === 0) return 'has no sealed structure pages';
  const fd = openSync(path, 'r');
  try {
    const pageSize = metaPageSize(fd);
    if (pageSize === 0) return 'has no valid LMDB header';
    for (const [first, count, sealed] of runs) {
      if (count > MAX_RUN_PAGES || crc32(readPages(fd, first, count, pageSize)) !== sealed) return `pages ${first}-${first + count - 1} fail their checksum`;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function readPages(fd: number, first: number, count: number, pageSize: number): Buffer {
  const bytes = Buffer.alloc(count * pageSize);
  const read = readSync(fd, bytes, 0, bytes.length, first * pageSize);
  return read === bytes.length ? bytes : bytes.subarray(0, read);
}

function metaPageSize(fd: number): number {
  const header = Buffer.alloc(PAGE_SIZE_OFFSET + 4);
  if (readSync(fd, header, 0, header.length, 0) !== header.length || header.readUInt32LE(MAGIC_OFFSET) !== LMDB_MAGIC) return 0;
  const pageSize = header.readUInt32LE(PAGE_SIZE_OFFSET);
  return pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0 ? pageSize : 0;
}

/** Throws INDEX_CORRUPT (marking the segment) unless `bytes` has the CRC the seal records for `name`. */
export function checkColumn(dir: string, seal: Seal, name: string, bytes: Uint8Array): void {
  const sealed = seal.columns[name];
  if (sealed === undefined) fail(dir, `column ${name} is not in the seal`);
  if (crc32(bytes) !== sealed) fail(dir, `column ${name} fails its checksum`);
}

/** Marks the segment damaged and throws. */
export function fail(dir: string, reason: string): never {
  markDamaged(dir, reason);
  throw damaged(dir, reason);
}

/**
 * What an error thrown by LMDB while reading the segment becomes: INDEX_CORRUPT, marking the
 * segment when LMDB reports damage. The message never carries the segment's path.
 */
export function readFailure(dir: string, err: unknown): QuarryError {
  if (isQuarryError(err)) return err;
  const message = errorMessage(err).split(dir).join(basename(dir));
  if (LMDB_DAMAGE.test(message)) {
    markDamaged(dir, message);
    return damaged(dir, message);
  }
  return createError('INDEX_CORRUPT', `index segment ${basename(dir)} cannot be read: ${message}`, { segment: basename(dir) });
}

/** Best effort: a segment already removed stays removed (no directory is created). */
function markDamaged(dir: string, reason: string): void {
  try {
    writeFileSync(join(dir, DAMAGED_FILE), reason, { flag: 'wx' });
  } catch {
    // Already marked, removed, or on a read-only disk: readers still refuse it by the checks above.
  }
}

function statOf(path: string): { readonly size: number; readonly mtimeMs: number } | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function textOf(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
