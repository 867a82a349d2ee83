/**
 * Filters that only the commit and diff searchers apply: any other searcher refuses a query that
 * carries them rather than silently ignoring them.
 */
import { createError } from '../../errors.js';
import type { BasicQuery } from '../../query/ast.js';

export function refuseCommitOnlyFilters(basic: BasicQuery): void {
  if (basic.filters.commit) {
    throw createError('QUERY_UNSUPPORTED', 'author:, committer:, message:, before: and after: apply only to type:commit and type:diff searches');
  }
  if (basic.filters.select === 'commit.diff.added' || basic.filters.select === 'commit.diff.removed') {
    throw createError('QUERY_UNSUPPORTED', `select:${basic.filters.select} applies only to type:diff searches`);
  }
}
