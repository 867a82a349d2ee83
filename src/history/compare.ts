/**
 * Compares two revisions as Sourcegraph's `repository.comparison` does: the changes `head` brings
 * over the merge base of `base` and `head` (`git diff base...head`); histories with no common
 * commit are compared tree to tree. Results are cached per commit pair; pages are cut by file.
 */
import { createError } from '../errors.js';
import { execGit, expectSuccess } from '../git/run.js';
import { diffTrees, type GitBounds } from './diff-git.js';
import type { FileDiff } from './diff-model.js';

export interface Comparison {
  readonly base: string;
  readonly head: string;
  /** The commit the diff starts from: the merge base, or `base` when there is none. */
  readonly from: string;
  readonly files: readonly FileDiff[];
  readonly totals: ComparisonTotals;
}

export interface ComparisonTotals {
  /** Lines, summed as `git diff --numstat` sums them (binary files count none). */
  readonly linesAdded: number;
  readonly linesDeleted: number;
  readonly filesAdded: number;
  readonly filesDeleted: number;
  /** Files changed in place, renamed or copied. */
  readonly filesModified: number;
}

export interface FilePage {
  readonly files: readonly FileDiff[];
  /** Offset of the first file shown. */
  readonly start: number;
  readonly endCursor: string | null;
  readonly hasNextPage: boolean;
}

const COMPARE_CONTEXT_LINES = 3;
const COMPARE_BOUNDS: GitBounds = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };
const CACHE_SIZE = 16;
const cache = new Map<string, Promise<Comparison>>();

/** `base` and `head` are commit ids. */
export function compareCommits(gitDir: string, base: string, head: string): Promise<Comparison> {
  const key = `${gitDir}\0${base}\0${head}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = computeComparison(gitDir, base, head);
  pending.catch(() => cache.delete(key));
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, pending);
  return pending;
}

async function computeComparison(gitDir: string, base: string, head: string): Promise<Comparison> {
  const from = (await mergeBase(gitDir, base, head)) ?? base;
  const files = await diffTrees(gitDir, from, head, COMPARE_CONTEXT_LINES, COMPARE_BOUNDS);
  return { base, head, from, files, totals: totalsOf(files) };
}

async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  const args = ['merge-base', a, b];
  const result = await execGit(args, { gitDir, timeoutMs: COMPARE_BOUNDS.timeoutMs });
  // Exit 1 with no output: the histories share no commit.
  if (result.code === 1 && result.stdout.length === 0) return null;
  return expectSuccess(args, result).toString('utf8').trim();
}

export function totalsOf(files: readonly FileDiff[]): ComparisonTotals {
  let linesAdded = 0;
  let linesDeleted = 0;
  let filesAdded = 0;
  let filesDeleted = 0;
  for (const file of files) {
    linesAdded += file.added;
    linesDeleted += file.deleted;
    if (file.status === 'added') filesAdded++;
    else if (file.status === 'deleted') filesDeleted++;
  }
  return { linesAdded, linesDeleted, filesAdded, filesDeleted, filesModified: files.length - filesAdded - filesDeleted };
}

/** Cursors are the decimal offset of the next file, as Sourcegraph's fileDiffs cursors are. */
export function pageFiles(files: readonly FileDiff[], first: number, after: string | null | undefined): FilePage {
  const start = after == null ? 0 : decodeOffset(after, files.length);
  const shown = files.slice(start, start + Math.max(0, first));
  const next = start + shown.length;
  return { files: shown, start, endCursor: next < files.length ? String(next) : null, hasNextPage: next < files.length };
}

function decodeOffset(cursor: string, total: number): number {
  const n = /^\d{1,9}$/.test(cursor) ? Number(cursor) : NaN;
  if (!Number.isSafeInteger(n) || n > total) {
    throw createError('INVALID_ARGUMENT', `invalid cursor "${cursor}": pass the endCursor of the previous page`, { cursor });
  }
  return n;
}
