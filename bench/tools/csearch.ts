/**
 * Debian's codesearch (cindex/csearch) as a contender: a trigram index file, then a process per query.
 * Also reads the index file's name list, because cindex skips some files silently (dot files,
 * invalid UTF-8, long lines, too many trigrams) and agreement is judged only on files both indexed.
 */
import { closeSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import type { BenchQuery } from '../queries.js';
import { collect, count, timed, type Counted, type TimedRun } from './process.js';
import { parseGrepRows, type RowSet } from './rows.js';

/** csearch exits 1 when nothing matched (some versions), 0 otherwise. */
const CSEARCH_OK = [0, 1] as const;
const TRAILER_MAGIC = '\ncsearch trailr\n';

function env(indexFile: string): NodeJS.ProcessEnv {
  return { ...process.env, CSEARCHINDEX: indexFile };
}

/** Literal patterns in the query table contain no regexp metacharacters, so they pass as they are. */
export function csearchArgs(q: BenchQuery): string[] {
  return ['-n', ...(q.caseSensitive ? [] : ['-i']), q.pattern];
}

/** Builds a fresh index of `worktree` under /usr/bin/time. */
export function buildCindex(worktree: string, indexFile: string): Promise<TimedRun> {
  rmSync(indexFile, { force: true });
  return timed('cindex', [worktree], { env: env(indexFile) });
}

export async function csearchRows(q: BenchQuery, indexFile: string, worktree: string): Promise<{ rows: RowSet; ms: number }> {
  const run = await collect('csearch', csearchArgs(q), { env: env(indexFile), okCodes: CSEARCH_OK });
  return { rows: parseGrepRows(run.stdout, worktree), ms: run.ms };
}

export function csearchOnce(q: BenchQuery, indexFile: string): Promise<Counted> {
  return count('csearch', csearchArgs(q), { env: env(indexFile), okCodes: CSEARCH_OK });
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const got = readSync(fd, buf, 0, length, position);
  if (got !== length) throw new Error(`short read from the csearch index at ${position}`);
  return buf;
}

/**
 * The worktree-relative paths of every file in a csearch index. The file ends with five big-endian
 * u32 section offsets (paths, names, postings, name index, posting index) and a magic line; the
 * name section is NUL-terminated names ending with an empty one.
 */
export function csearchIndexedPaths(indexFile: string, worktree: string): Set<string> {
  const fd = openSync(indexFile, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = readAt(fd, size - TRAILER_MAGIC.length - 20, TRAILER_MAGIC.length + 20);
    if (tail.subarray(20).toString('latin1') !== TRAILER_MAGIC) throw new Error(`${indexFile} is not a csearch index`);
    const namesStart = tail.readUInt32BE(4);
    const namesEnd = tail.readUInt32BE(8);
    const prefix = worktree.endsWith('/') ? worktree : `${worktree}/`;
    const paths = new Set<string>();
    for (const name of readAt(fd, namesStart, namesEnd - namesStart).toString('utf8').split('\0')) {
      if (name === '') continue;
      if (!name.startsWith(prefix)) throw new Error(`csearch index holds a file outside ${worktree}: ${name}`);
      paths.add(name.slice(prefix.length));
    }
    return paths;
  } finally {
    closeSync(fd);
  }
}
