/**
 * The diff side of history for the front doors: diff search, revision comparison and ancestors of
 * one repository at a time, revisions resolved (unknown ones are REVISION_NOT_FOUND errors) before
 * git sees them. Callers pass repositories the user may read; this layer does not check access.
 */
import { createError, isQuarryError } from '../errors.js';
import { quoteInput } from '../git/input.js';
import { defaultBranch, resolveRevision } from '../git/mirror.js';
import { listAncestors, type AncestorsPage, type AncestorsRequest } from './compare-log.js';
import { compareCommits, type Comparison } from './compare.js';
import { searchDiffPage, type DiffSearchRequest } from './repo-diff-search.js';
import type { CommitTable } from './commit-table.js';
import { branchFromFiles } from './ref-files.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import type { DiffLineRunner } from './diff-lines.js';
import type { CommitHit } from './diff-model.js';
import type { DiffPage, PagedHit } from './diff-page.js';

export interface DiffQuery extends Omit<DiffSearchRequest, 'pageFull'> {
  /** Revisions to walk from in every repository (`^rev` excludes); none means HEAD. */
  readonly revisions: readonly string[];
  /** Whether the hits found so far fill the caller's answer budget: the page ends after them. */
  readonly budgetFull?: (hits: readonly RepoDiffHit[]) => boolean;
}

export interface RepoDiffHit {
  readonly repo: string;
  /** Position in the merged candidate list: the next page starts at a later one. */
  readonly position: number;
  readonly hit: CommitHit;
}

/** A repository's commit index as diff search uses it: its commits and the default branch it was built for. */
export interface IndexedCommits {
  readonly table: CommitTable;
  readonly defaultBranch: string;
}

export interface DiffSearchPage extends Omit<DiffPage, 'hits'> {
  readonly hits: readonly RepoDiffHit[];
}

export interface DiffHistory {
  /**
   * One page of matching commits across the repositories, newest first, from position `start`
   * (0, or the `next` of the page before) of their candidates merged newest first.
   */
  searchDiffs(repos: readonly string[], query: DiffQuery, start?: number): Promise<DiffSearchPage>;
  compare(repo: string, base: string, head: string): Promise<Comparison>;
  /** `oid` is a commit id already known to exist. */
  ancestors(repo: string, oid: string, request: AncestorsRequest): Promise<AncestorsPage>;
}

/**
 * `pool` matches the changed lines of diff searches; this thread only reads and plans. `indexOf`
 * gives a repository's history index (null when it has none): diffs are read only for the commits
 * it cannot rule out, and through git alone for commits it does not hold. `commitsOf` gives its
 * commit index (null when not built), which lists the candidates in git log's order without git
 * when it holds the tips; the default tip is then read from the repository's ref files.
 */
export function createDiffHistory(
  gitDirOf: (repo: string) => string,
  pool: DiffLineRunner,
  indexOf: (repo: string) => DiffIndexReader | null = () => null,
  commitsOf: (repo: string) => Promise<IndexedCommits | null> = () => Promise.resolve(null),
): DiffHistory {
  return {
    async searchDiffs(repos, query, start = 0) {
      const sources = [];
      for (const repo of repos) {
        const gitDir = gitDirOf(repo);
        const commits = await commitsOf(repo);
        sources.push({ gitDir, tips: await tipsOf(gitDir, repo, query.revisions, commits), index: indexOf(repo), commits: commits?.table ?? null });
      }
      const named = (hits: readonly PagedHit[]): RepoDiffHit[] => hits.map(({ source, position, hit }) => ({ repo: repos[source]!, position, hit }));
      const { budgetFull } = query;
      const page = await searchDiffPage(pool, sources, { ...query, ...(budgetFull ? { pageFull: (hits: readonly PagedHit[]) => budgetFull(named(hits)) } : {}) }, start);
      return { ...page, hits: named(page.hits) };
    },
    async compare(repo, base, head) {
      const gitDir = gitDirOf(repo);
      return compareCommits(gitDir, await resolveIn(gitDir, repo, base), await resolveIn(gitDir, repo, head));
    },
    ancestors: (repo, oid, request) => listAncestors(gitDirOf(repo), oid, request),
  };
}

async function tipsOf(gitDir: string, repo: string, revisions: readonly string[], indexed: IndexedCommits | null): Promise<string[]> {
  const tips: string[] = [];
  // The default branch as the index reads it: a mirror's HEAD may name a branch it does not have.
  const defaultTip = async (): Promise<string> => {
    const fromFiles = indexed === null ? undefined : branchFromFiles(gitDir, indexed.defaultBranch);
    if (fromFiles !== undefined && indexed!.table.ordinalOf(fromFiles) !== undefined) return fromFiles;
    return resolveIn(gitDir, repo, `refs/heads/${await defaultBranch(gitDir)}`);
  };
  if (revisions.length === 0) return [await defaultTip()];
  for (const rev of revisions) {
    const excluded = rev.startsWith('^');
    tips.push(`${excluded ? '^' : ''}${await resolveIn(gitDir, repo, excluded ? rev.slice(1) : rev)}`);
  }
  if (tips.every((tip) => tip.startsWith('^'))) tips.push(await defaultTip());
  return tips;
}

async function resolveIn(gitDir: string, repo: string, rev: string): Promise<string> {
  try {
    return await resolveRevision(gitDir, rev);
  } catch (err) {
    if (!isQuarryError(err, 'REVISION_NOT_FOUND')) throw err;
    const problem = err.details['problem'];
    const shown = typeof problem === 'string' ? `${quoteInput(rev)} (it ${problem})` : rev;
    throw createError('REVISION_NOT_FOUND', `Revision not found: ${shown} in ${repo}. Pass a branch, tag or commit that exists.`, { repo, rev, ...(typeof problem === 'string' ? { problem } : {}) });
  }
}
