/**
 * What the commit and diff searchers share: the commit index criteria of a query's metadata
 * filters, and a stored commit as a CommitMatch. Plain data; no git and no matching here.
 */
import { parseDate } from '../../history/dates.js';
import type { CommitFilter } from '../../history/commit-filter.js';
import type { CommitCriteria } from '../../history/commit-match.js';
import type { StoredCommit } from '../../index/commits/commit-store.js';
import type { CommitMatch, DiffPreview } from '../../model/result.js';
import type { BasicQuery } from '../../query/ast.js';

/** `filter` holds author:, committer:, message: (and for type:commit the pattern); before: and after: bound the dates. */
export function commitCriteria(basic: BasicQuery, filter: CommitFilter | null): CommitCriteria {
  const commit = basic.filters.commit;
  return {
    messageTerms: [], authors: [], committers: [], files: [], useRegex: false, filter,
    ...(commit?.after ? { after: parseDate(commit.after) } : {}),
    ...(commit?.before ? { before: parseDate(commit.before) } : {}),
  };
}

export function commitMatch(repository: string, repositoryID: number, c: StoredCommit, ranges: [number, number, number][], preview?: DiffPreview): CommitMatch {
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
  return {
    type: 'commit', repository, repositoryID, oid: c.oid, message: c.message, parents: c.parents,
    authorName: c.authorName, authorEmail: c.authorEmail, authorDate: iso(c.authorDate),
    committerName: c.committerName, committerEmail: c.committerEmail, committerDate: iso(c.committerDate),
    ranges, matchCount: 1, ...(preview ? { diffPreview: preview } : {}),
  };
}
