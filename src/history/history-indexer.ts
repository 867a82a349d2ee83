/**
 * Keeps a repository's history index current: the diff of every commit reachable from its
 * branches and tags, read exactly as diff search reads them (diff-git.ts, merges without a diff),
 * stored as git printed it, its changed lines turned into postings in the index workers, and
 * written one batch per transaction, so a killed run keeps its finished batches and the next run
 * reads only the commits still missing.
 */
import { isQuarryError } from '../errors.js';
import { runGit } from '../git/run.js';
import type { DiffPostingsJob, DiffPostingsRun } from '../index/history/diff-postings.js';
import type { HistoryIndex, IndexedCommit } from '../index/history/history-store.js';
import { commitRefs, sameRefs } from './commit-indexer.js';
import { parseCommitRecord, readCommitRecords } from './diff-git.js';
import { packDiffLines } from './diff-lines.js';
import type { CommitDiff } from './diff-model.js';
import { DIFF_CONTEXT_LINES, DIFF_READ_MAX_BYTES, isOversized } from './diff-page.js';

/** The part of the worker pool that builds postings. */
export interface DiffPostingsRunner {
  submit(kind: 'diff-postings', task: DiffPostingsJob): Promise<DiffPostingsRun>;
}

export interface HistoryIndexOutcome {
  readonly mode: 'unchanged' | 'updated';
  /** Commits indexed by this run. */
  readonly added: number;
  /** Commits whose diff alone is over the read bound: searches read (and skip) them through git. */
  readonly unindexed: number;
  readonly sizeBytes: number;
}

/** Commits per transaction: larger batches mean fewer lists per trigram, bounded memory per batch. */
const WRITE_BATCH = 1000;
/** Commits per git read. */
const READ_BATCH = 100;
const READ_TIMEOUT_MS = 10 * 60_000;
const LIST_MAX_BYTES = 1024 * 1024 * 1024;

export async function updateHistoryIndex(index: HistoryIndex, gitDir: string, pool: DiffPostingsRunner): Promise<HistoryIndexOutcome> {
  const refs = await commitRefs(gitDir);
  const old = index.state();
  if (old && sameRefs(old.refs, refs)) return { mode: 'unchanged', added: 0, unindexed: 0, sizeBytes: index.sizeBytes() };
  const missing = (await newCommits(gitDir, Object.values(refs), Object.values(old?.refs ?? {}))).filter((oid) => index.ordinalOf(oid) === undefined);
  let added = 0;
  let unindexed = 0;
  for (let i = 0; i < missing.length; i += WRITE_BATCH) {
    const records: string[] = [];
    const chunk = missing.slice(i, i + WRITE_BATCH);
    for (let j = 0; j < chunk.length; j += READ_BATCH) records.push(...await readRecords(gitDir, chunk.slice(j, j + READ_BATCH)));
    unindexed += chunk.length - records.length;
    const first = index.nextOrdinal();
    const diffs: CommitDiff[] = records.map(parseCommitRecord);
    const commits: IndexedCommit[] = diffs.map((diff, k) => ({ oid: diff.oid, ordinal: first + k, record: records[k]! }));
    const run = await pool.submit('diff-postings', { ...packDiffLines(diffs), ordinals: Uint32Array.from(commits, (c) => c.ordinal) });
    await index.putBatch(commits, run);
    added += commits.length;
  }
  await index.setState({ refs });
  return { mode: 'updated', added, unindexed, sizeBytes: index.sizeBytes() };
}

/** Commits reachable from `tips` and not from `known`, oldest first; all of them when a known tip is gone from the mirror. */
async function newCommits(gitDir: string, tips: readonly string[], known: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(tips)];
  if (wanted.length === 0) return [];
  const list = (exclude: readonly string[]) => runGit(['rev-list', '--reverse', '--stdin'], {
    gitDir, input: `${[...wanted, ...exclude.map((oid) => `^${oid}`)].join('\n')}\n`, timeoutMs: READ_TIMEOUT_MS, maxBytes: LIST_MAX_BYTES,
  });
  let out: Buffer;
  try {
    out = await list(known);
  } catch (err) {
    if (!isQuarryError(err, 'GIT_FAILED') || err.details['timedOut'] === true || known.length === 0) throw err;
    out = await list([]);
  }
  return out.toString('utf8').split('\n').filter((line) => line !== '');
}

/** The diff records of `oids` in order; a read over the bound is halved, and a single commit over it is left out. */
async function readRecords(gitDir: string, oids: readonly string[]): Promise<string[]> {
  try {
    return await readCommitRecords(gitDir, oids, DIFF_CONTEXT_LINES, { timeoutMs: READ_TIMEOUT_MS, maxBytes: DIFF_READ_MAX_BYTES });
  } catch (err) {
    if (!isOversized(err)) throw err;
  }
  if (oids.length === 1) return [];
  const half = Math.ceil(oids.length / 2);
  return [...await readRecords(gitDir, oids.slice(0, half)), ...await readRecords(gitDir, oids.slice(half))];
}
