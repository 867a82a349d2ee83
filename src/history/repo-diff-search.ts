/**
 * Diff search, for the diff_search tool (diff-service.ts) and type:diff queries (search/): the
 * candidate commits (reachable from the tips, merges left out as `git log -G` leaves them out,
 * filtered by author, date and message on their metadata), then their diffs read newest first and
 * matched in the worker pool (diff-page.ts), passing over the commits the history index rules out.
 * No line is matched on this thread.
 */
import { applyCommitFilter, type CommitField, type CommitFilter } from './commit-filter.js';
import { personText } from './commit-table.js';
import type { CommitHit, CommitMeta } from './diff-model.js';
import { listCommits } from './diff-git.js';
import { commitsToRead, hitQuery, type DiffIndexReader } from './diff-index-filter.js';
import { searchedKinds, type DiffLineRunner } from './diff-lines.js';
import type { DiffPattern } from './diff-match.js';
import { boundsUntil, isTimeout, mergeNewestFirst, scanDiffPage, type DiffPage } from './diff-page.js';
import type { TextList } from './text-atoms.js';

export interface DiffSearchRequest {
  /** The planned pattern (and, for the query language, its AND/OR/NOT); a worker matches it. */
  readonly pattern: DiffPattern;
  /** Which changed lines to search: both unless exactly one is asked for. */
  readonly added: boolean;
  readonly removed: boolean;
  /** What authors (`Name <email>`) and messages must match; null: any commit. */
  readonly metadata: CommitFilter | null;
  /** Committer date bounds, as `git log --since/--until` apply them. */
  readonly after: Date | null;
  readonly before: Date | null;
  readonly count: number;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** One repository's side of a search: its git directory, the commit ids walked from (`^oid` excludes) and its history index, if built. */
export interface DiffSearchSource {
  readonly gitDir: string;
  readonly tips: readonly string[];
  readonly index: DiffIndexReader | null;
}

export interface DiffSearchOutcome {
  /** At most `count`, newest first. */
  readonly commits: readonly CommitHit[];
  /** More matching commits exist, or the search stopped before it could tell. */
  readonly limitHit: boolean;
  readonly timedOut: boolean;
}

const LIST_MAX_BYTES = 256 * 1024 * 1024;

/**
 * One page over several repositories' candidates merged newest first, from position `start` of
 * that list (0 for the first page; a page's `next` for the following one).
 */
export async function searchDiffPage(pool: DiffLineRunner, sources: readonly DiffSearchSource[], request: DiffSearchRequest, start: number): Promise<DiffPage> {
  const lists: CommitMeta[][] = [];
  try {
    for (const source of sources) lists.push(await listCandidates(pool, source, request));
  } catch (err) {
    if (!isTimeout(err)) throw err;
    return { hits: [], next: start, timedOut: true, scanned: 0, candidates: 0, skipped: 0 };
  }
  const candidates = mergeNewestFirst(lists);
  const toRead = new Uint8Array(candidates.length).fill(1);
  sources.forEach((source, s) => {
    if (source.index === null) return;
    const positions: number[] = [];
    for (let p = start; p < candidates.length; p++) if (candidates[p]!.source === s) positions.push(p);
    const read = commitsToRead(source.index, hitQuery(request.pattern.trigrams, request.pattern.highlight), searchedKinds(request.added, request.removed), positions.map((p) => candidates[p]!.oid));
    positions.forEach((p, k) => (toRead[p] = read[k]!));
  });
  return scanDiffPage(pool, sources.map((s) => s.gitDir), candidates, start, request, toRead);
}

export type DiffScanRequest = Pick<DiffSearchRequest, 'pattern' | 'added' | 'removed' | 'count' | 'deadline' | 'signal'>;

/**
 * Reads the diffs of one repository's commits already chosen (newest first) and keeps those whose
 * changed lines match; with the repository's history index, only the commits it cannot rule out.
 */
export async function scanCommitDiffs(pool: DiffLineRunner, gitDir: string, index: DiffIndexReader | null, candidates: readonly string[], request: DiffScanRequest): Promise<DiffSearchOutcome> {
  const toRead = index === null ? undefined : commitsToRead(index, hitQuery(request.pattern.trigrams, request.pattern.highlight), searchedKinds(request.added, request.removed), candidates);
  const page = await scanDiffPage(pool, [gitDir], candidates.map((oid) => ({ source: 0, oid })), 0, request, toRead);
  return { commits: page.hits.map((h) => h.hit), limitHit: page.next !== null, timedOut: page.timedOut };
}

/** The non-merge commits reachable from the tips within the dates whose author and message pass the metadata filter (regexes matched in the pool). */
async function listCandidates(pool: DiffLineRunner, source: DiffSearchSource, request: DiffSearchRequest): Promise<CommitMeta[]> {
  const commits = (await listCommits(source.gitDir, source.tips, boundsUntil(request.deadline, LIST_MAX_BYTES))).filter((c) => c.parents.length < 2);
  const scope = Uint8Array.from(commits, (commit) => {
    const time = Date.parse(commit.committerDate);
    return (request.after === null || time >= request.after.getTime()) && (request.before === null || time <= request.before.getTime()) ? 1 : 0;
  });
  const texts = (field: CommitField): TextList => ({ texts: commits.map(field === 'message' ? (c) => c.message : (c) => personText(c.authorName, c.authorEmail)) });
  const kept = request.metadata === null ? scope : await applyCommitFilter(request.metadata, texts, scope, pool, request);
  return commits.filter((_, i) => kept[i] === 1);
}
