/**
 * `type:diff` for the search service: the commit index picks each repository's candidate commits
 * (revisions, author:, committer:, message:, before:, after:), git reads their diffs newest first,
 * and the worker pool matches the query's pattern in added and removed lines only, never in
 * messages. This thread plans and merges; it never matches a line.
 */
import { createError } from '../errors.js';
import { parseDate } from '../history/dates.js';
import type { StoredCommit } from '../index/commits/commit-store.js';
import type { CommitCriteria } from '../history/commit-match.js';
import { scanCommitDiffs } from '../history/repo-diff-search.js';
import type { DiffLineRunner } from '../history/diff-lines.js';
import type { CommitHit as DiffHit } from '../history/diff-model.js';
import type { CommitMatch } from '../model/result.js';
import type { BasicQuery } from '../query/ast.js';
import type { CommitSearcher } from './commit-search.js';
import { commitQueryTerms } from './commit-terms.js';
import { diffPreview } from './diff-preview.js';
import { compileDiffTerms } from './diff-terms.js';
import type { RepoTarget } from './select-repos.js';

export interface DiffSearcher extends CommitSearcher {
  /** The bare git directory of a repository the commit index knows. */
  gitDir(repo: string): string;
  /** Matches the changed lines, a batch of commits per task. */
  readonly pool: DiffLineRunner;
}

export interface DiffSearchBounds {
  readonly limit: number;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

export interface DiffQueryResult {
  readonly matches: CommitMatch[];
  readonly limitHit: boolean;
  readonly timedOut: boolean;
}

/** Candidates per repository handed to git, newest first; older commits count as a limit hit. */
const MAX_CANDIDATES = 100_000;
/** Repositories whose diffs are read at once: each is one git process at a time. */
const PARALLEL_REPOS = 2;

export async function searchDiffQuery(searcher: DiffSearcher | undefined, basic: BasicQuery, targets: readonly RepoTarget[], bounds: DiffSearchBounds): Promise<DiffQueryResult> {
  if (!searcher) throw createError('QUERY_UNSUPPORTED', 'type:diff searches are not available: this engine has no commit index');
  const { filters } = basic;
  if (filters.files.length > 0 || filters.langs.length > 0) {
    throw createError('QUERY_UNSUPPORTED', 'file: and lang: do not apply to type:diff searches yet; narrow with repo:, author:, message:, before: or after:');
  }
  const added = filters.select === 'commit.diff.added';
  const removed = filters.select === 'commit.diff.removed';
  const pattern = compileDiffTerms(basic.pattern, { caseSensitive: filters.caseSensitive });
  const criteria = metadataCriteria(basic);
  const searchOne = async (target: RepoTarget) => {
    const repo = target.manifest.repo;
    const index = await searcher.searchCommits({
      repos: [repo], criteria, contentTerms: [], revisions: target.revs, count: MAX_CANDIDATES, canRead: () => true,
      deadline: bounds.deadline, ...(bounds.signal ? { signal: bounds.signal } : {}),
    });
    const byOid = new Map(index.commits.map((hit) => [hit.commit.oid, hit.commit]));
    const outcome = await scanCommitDiffs(searcher.pool, searcher.gitDir(repo), [...byOid.keys()], {
      pattern, added, removed, count: bounds.limit, deadline: bounds.deadline, ...(bounds.signal ? { signal: bounds.signal } : {}),
    });
    const matches = outcome.commits.map((hit) => toMatch(repo, target.manifest.repoId, byOid.get(hit.commit.oid)!, hit));
    return { matches, limitHit: outcome.limitHit || index.limitHit, timedOut: outcome.timedOut };
  };
  const perRepo = await inBatches(targets, PARALLEL_REPOS, searchOne);
  const all = perRepo.flatMap((r) => r.matches).sort((a, b) => Date.parse(b.committerDate) - Date.parse(a.committerDate));
  const matches = all.slice(0, bounds.limit);
  return { matches, limitHit: all.length > matches.length || perRepo.some((r) => r.limitHit), timedOut: perRepo.some((r) => r.timedOut) };
}

/** author:, committer:, message: (regular expressions, negatable) and the date bounds, for the commit index. */
function metadataCriteria(basic: BasicQuery): CommitCriteria {
  const commit = basic.filters.commit;
  return {
    messageTerms: [], authors: [], committers: [], files: [], useRegex: false, filter: commitQueryTerms(basic, false).filter,
    ...(commit?.after ? { after: parseDate(commit.after) } : {}),
    ...(commit?.before ? { before: parseDate(commit.before) } : {}),
  };
}

async function inBatches<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...await Promise.all(items.slice(i, i + width).map(run)));
  return out;
}

function toMatch(repository: string, repositoryID: number, c: StoredCommit, hit: DiffHit): CommitMatch {
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
  return {
    type: 'commit', repository, repositoryID, oid: c.oid, message: c.message, parents: c.parents,
    authorName: c.authorName, authorEmail: c.authorEmail, authorDate: iso(c.authorDate),
    committerName: c.committerName, committerEmail: c.committerEmail, committerDate: iso(c.committerDate),
    ranges: [], matchCount: 1, diffPreview: diffPreview(hit.hunks),
  };
}
