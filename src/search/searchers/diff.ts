/**
 * The diff searcher, `type:diff`: the commit index picks each repository's candidate commits
 * (revisions, author:, committer:, message:, before:, after:), the history index rules out those whose
 * changed lines cannot match, git reads the diffs of the others newest first,
 * and the worker pool matches the query's pattern in added and removed lines only, never in
 * messages. This thread plans and merges; it never matches a line.
 */
import { createError } from '../../errors.js';
import type { DiffIndexReader } from '../../history/diff-index-filter.js';
import type { DiffLineRunner } from '../../history/diff-lines.js';
import { scanCommitDiffs } from '../../history/repo-diff-search.js';
import type { BasicQuery } from '../../query/ast.js';
import { commitQueryTerms } from '../commit-terms.js';
import { diffPreview } from '../diff-preview.js';
import { compileDiffTerms } from '../diff-terms.js';
import { NOTHING_FOUND, type Found, type SearchScope, type Searcher } from '../searcher.js';
import type { RepoTarget } from '../select-repos.js';
import { commitCriteria, commitMatch } from './commit-match.js';
import type { CommitSource } from './commit.js';

/** The commit index plus git directories behind type:diff. */
export interface DiffSource extends CommitSource {
  /** The bare git directory of a repository the commit index knows. */
  gitDir(repo: string): string;
  /** Matches the changed lines, a batch of commits per task. */
  readonly pool: DiffLineRunner;
  /** The repository's history index, or null when it has none (every diff is then read through git). */
  indexOf(repo: string): DiffIndexReader | null;
}

/** Candidates per repository handed to git, newest first; older commits count as a limit hit. */
const MAX_CANDIDATES = 100_000;
/** Repositories whose diffs are read at once: each is one git process at a time. */
const PARALLEL_REPOS = 2;

/** Placed after the commit searcher: a query naming both type:commit and type:diff is a commit search. */
export function createDiffSearcher(source: DiffSource | undefined): Searcher {
  return {
    section: 'commits',
    accepts: (basic) => basic.filters.types.includes('diff'),
    start: (scope) => ({ run: (basic, targets) => searchDiffs(source, basic, targets, scope) }),
  };
}

async function searchDiffs(source: DiffSource | undefined, basic: BasicQuery, targets: readonly RepoTarget[], scope: SearchScope): Promise<Found> {
  if (!source) throw createError('QUERY_UNSUPPORTED', 'type:diff searches are not available: this engine has no commit index');
  const { filters } = basic;
  if (filters.files.length > 0 || filters.langs.length > 0) {
    throw createError('QUERY_UNSUPPORTED', 'file: and lang: do not apply to type:diff searches yet; narrow with repo:, author:, message:, before: or after:');
  }
  const { limit, bounds } = scope;
  const added = filters.select === 'commit.diff.added';
  const removed = filters.select === 'commit.diff.removed';
  const pattern = compileDiffTerms(basic.pattern, { caseSensitive: filters.caseSensitive });
  const criteria = commitCriteria(basic, commitQueryTerms(basic, false).filter);
  const searchOne = async (target: RepoTarget) => {
    const repo = target.manifest.repo;
    const index = await source.searchCommits({
      repos: [repo], criteria, contentTerms: [], revisions: target.revs, count: MAX_CANDIDATES, canRead: () => true, ...bounds,
    });
    const byOid = new Map(index.commits.map((hit) => [hit.commit.oid, hit.commit]));
    const outcome = await scanCommitDiffs(source.pool, source.gitDir(repo), source.indexOf(repo), [...byOid.keys()], { pattern, added, removed, count: limit, ...bounds });
    const matches = outcome.commits.map((hit) => commitMatch(repo, target.manifest.repoId, byOid.get(hit.commit.oid)!, [], diffPreview(hit.hunks)));
    return { matches, limitHit: outcome.limitHit || index.limitHit, timedOut: outcome.timedOut };
  };
  const perRepo = await inBatches(targets, PARALLEL_REPOS, searchOne);
  const all = perRepo.flatMap((r) => r.matches).sort((a, b) => Date.parse(b.committerDate) - Date.parse(a.committerDate));
  const matches = all.slice(0, limit);
  return {
    ...NOTHING_FOUND, matches, matchCount: matches.length,
    limitHit: all.length > matches.length || perRepo.some((r) => r.limitHit), timedOut: perRepo.some((r) => r.timedOut),
  };
}

async function inBatches<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...await Promise.all(items.slice(i, i + width).map(run)));
  return out;
}
