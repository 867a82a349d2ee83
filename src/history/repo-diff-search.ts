/**
 * Diff search, for the diff_search tool (diff-service.ts) and type:diff queries (search/): the
 * candidate commits (reachable from the tips in git log's order, from the commit index when it holds
 * them, else from git; merges left out as `git log -G` leaves them out; filtered by author, date and
 * message on their metadata), then their diffs read newest first and matched in the worker pool
 * (diff-page.ts), passing over the commits the history index rules out. No line is matched here.
 */
import { applyCommitFilter, type CommitField, type CommitFilter } from './commit-filter.js';
import { personText, type CommitTable } from './commit-table.js';
import { walkLikeGitLog } from './commit-walk.js';
import { utcFromEpochSeconds } from '../git/commit.js';
import type { CommitHit, CommitMeta } from './diff-model.js';
import { listCommits } from './diff-git.js';
import { commitFilter, hitQuery, type DiffIndexReader } from './diff-index-filter.js';
import { searchedKinds, type DiffLineRunner } from './diff-lines.js';
import type { DiffPattern } from './diff-match.js';
import { boundsUntil, isTimeout, mergeNewestFirst, scanDiffPage, type DiffPage, type PagedHit } from './diff-page.js';
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
  /** Whether the hits found so far fill the caller's answer budget: the page ends there (diff-page.ts). */
  readonly pageFull?: (hits: readonly PagedHit[]) => boolean;
}

/**
 * One repository's side of a search: its git directory, the commit ids walked from (`^oid`
 * excludes), its history index and its commit index (null when not built).
 */
export interface DiffSearchSource {
  readonly gitDir: string;
  readonly tips: readonly string[];
  readonly index: DiffIndexReader | null;
  readonly commits: CommitTable | null;
}

export interface DiffSearchOutcome {
  /** At most `count`, newest first. */
  readonly commits: readonly CommitHit[];
  /** More matching commits exist, or the search stopped before it could tell. */
  readonly limitHit: boolean;
  readonly timedOut: boolean;
}

const LIST_MAX_BYTES = 256 * 1024 * 1024;
/** Tip sets whose walks stay cached per commit index table. */
const MAX_CACHED_WALKS = 8;

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
  const query = hitQuery(request.pattern.trigrams, request.pattern.highlight);
  const filters = sources.map((source) => (source.index === null ? null : commitFilter(source.index, query, searchedKinds(request.added, request.removed))));
  const toRead = (at: number): boolean => filters[candidates[at]!.source]?.(candidates[at]!.oid) ?? true;
  return scanDiffPage(pool, sources, candidates, start, request, toRead);
}

export type DiffScanRequest = Pick<DiffSearchRequest, 'pattern' | 'added' | 'removed' | 'count' | 'deadline' | 'signal'>;

/**
 * Reads the diffs of one repository's commits already chosen (newest first) and keeps those whose
 * changed lines match; with the repository's history index, only the commits it cannot rule out.
 */
export async function scanCommitDiffs(pool: DiffLineRunner, gitDir: string, index: DiffIndexReader | null, candidates: readonly string[], request: DiffScanRequest): Promise<DiffSearchOutcome> {
  const mustRead = index === null ? undefined : commitFilter(index, hitQuery(request.pattern.trigrams, request.pattern.highlight), searchedKinds(request.added, request.removed));
  const toRead = mustRead === undefined ? undefined : (at: number) => mustRead(candidates[at]!);
  const page = await scanDiffPage(pool, [{ gitDir, index }], candidates.map((oid) => ({ source: 0, oid })), 0, request, toRead);
  return { commits: page.hits.map((h) => h.hit), limitHit: page.next !== null, timedOut: page.timedOut };
}

/** The non-merge commits reachable from the tips within the dates whose author and message pass the metadata filter (regexes matched in the pool). */
async function listCandidates(pool: DiffLineRunner, source: DiffSearchSource, request: DiffSearchRequest): Promise<CommitMeta[]> {
  const listed = indexedWalk(source) ?? await listCommits(source.gitDir, source.tips, boundsUntil(request.deadline, LIST_MAX_BYTES));
  let commits = nonMerges.get(listed);
  if (commits === undefined) nonMerges.set(listed, (commits = listed.filter((c) => c.parents.length < 2)));
  const dated = request.after !== null || request.before !== null;
  // A cached walk's list stays the same object from page to page (diff-page.ts keys its candidates by it).
  if (!dated && request.metadata === null) return commits;
  const scope = Uint8Array.from(commits, (commit) => {
    if (!dated) return 1;
    const time = Date.parse(commit.committerDate);
    return (request.after === null || time >= request.after.getTime()) && (request.before === null || time <= request.before.getTime()) ? 1 : 0;
  });
  const texts = (field: CommitField): TextList => ({ texts: commits.map(field === 'message' ? (c) => c.message : (c) => personText(c.authorName, c.authorEmail)) });
  const kept = request.metadata === null ? scope : await applyCommitFilter(request.metadata, texts, scope, pool, request);
  return commits.filter((_, i) => kept[i] === 1);
}

/** A walk's commits without its merges, for as long as the walk stays cached. */
const nonMerges = new WeakMap<readonly CommitMeta[], CommitMeta[]>();

/** Walks cached per commit index table and tips: later pages of a search walk the same list. */
const walks = new WeakMap<CommitTable, Map<string, CommitMeta[]>>();

/** The commits `git log <tips>` lists, from the commit index; null when it cannot tell (an exclusion, a tip it does not hold). */
function indexedWalk(source: DiffSearchSource): CommitMeta[] | null {
  const table = source.commits;
  if (table === null || source.tips.some((tip) => tip.startsWith('^'))) return null;
  const tips = source.tips.map((tip) => table.ordinalOf(tip));
  if (tips.some((tip) => tip === undefined)) return null;
  const cached = walks.get(table) ?? new Map<string, CommitMeta[]>();
  walks.set(table, cached);
  const key = source.tips.join(' ');
  let listed = cached.get(key);
  if (listed === undefined) {
    listed = walkLikeGitLog(table, tips as number[]).map((ordinal) => {
      const c = table.commits[ordinal]!;
      return {
        oid: c.oid, parents: c.parents, authorName: c.authorName, authorEmail: c.authorEmail, message: c.message,
        authorDate: utcFromEpochSeconds(String(c.authorDate)), committerDate: utcFromEpochSeconds(String(c.committerDate)),
      };
    });
    if (cached.size >= MAX_CACHED_WALKS) cached.delete(cached.keys().next().value!);
    cached.set(key, listed);
  }
  return listed;
}
