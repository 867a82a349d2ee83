/**
 * The diff side of history for the front doors: diff search, revision comparison and ancestors of
 * one repository at a time, revisions resolved (unknown ones are REVISION_NOT_FOUND errors) before
 * git sees them. Callers pass repositories the user may read; this layer does not check access.
 */
import { createError, isQuarryError } from '../errors.js';
import { quoteInput } from '../git/input.js';
import { resolveRevision } from '../git/mirror.js';
import { listAncestors, type AncestorsPage, type AncestorsRequest } from './compare-log.js';
import { compareCommits, type Comparison } from './compare.js';
import { searchDiffs, type DiffSearchOutcome, type DiffSearchRequest } from './repo-diff-search.js';
import type { DiffLineRunner } from './diff-lines.js';

export interface DiffQuery extends Omit<DiffSearchRequest, 'tips'> {
  /** Revisions to walk from (`^rev` excludes); none means HEAD. */
  readonly revisions: readonly string[];
}

export interface DiffHistory {
  searchDiffs(repo: string, query: DiffQuery): Promise<DiffSearchOutcome>;
  compare(repo: string, base: string, head: string): Promise<Comparison>;
  /** `oid` is a commit id already known to exist. */
  ancestors(repo: string, oid: string, request: AncestorsRequest): Promise<AncestorsPage>;
}

/** `pool` matches the changed lines of diff searches; this thread only reads and plans. */
export function createDiffHistory(gitDirOf: (repo: string) => string, pool: DiffLineRunner): DiffHistory {
  return {
    async searchDiffs(repo, query) {
      const gitDir = gitDirOf(repo);
      const revisions = query.revisions.length > 0 ? query.revisions : ['HEAD'];
      const tips: string[] = [];
      for (const rev of revisions) {
        const excluded = rev.startsWith('^');
        tips.push(`${excluded ? '^' : ''}${await resolveIn(gitDir, repo, excluded ? rev.slice(1) : rev)}`);
      }
      if (tips.every((tip) => tip.startsWith('^'))) tips.push(await resolveIn(gitDir, repo, 'HEAD'));
      return searchDiffs(pool, gitDir, { ...query, tips });
    },
    async compare(repo, base, head) {
      const gitDir = gitDirOf(repo);
      return compareCommits(gitDir, await resolveIn(gitDir, repo, base), await resolveIn(gitDir, repo, head));
    },
    ancestors: (repo, oid, request) => listAncestors(gitDirOf(repo), oid, request),
  };
}

async function resolveIn(gitDir: string, repo: string, rev: string): Promise<string> {
  try {
    return await resolveRevision(gitDir, rev);
  } catch (err) {
    if (!isQuarryError(err, 'REVISION_NOT_FOUND')) throw err;
    const problem = err.details['problem'];
    const shown = typeof problem === 'string' ? `${quoteInput(rev)} (it ${problem})` : rev;
    throw createError('REVISION_NOT_FOUND', `Revision not found: ${shown} in ${repo}. Pass a branch, tag or commit that exists.`, { repo, rev });
  }
}
