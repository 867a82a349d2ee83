/**
 * The file searcher: file content, path and symbol queries, answered by shard tasks in the worker
 * pool. One searcher for all three because their alternatives share one collector: a file found
 * by two of them is one match, they share the limit, and they are ranked together.
 */
import type { FileMatch, SearchMatch } from '../../model/result.js';
import type { Manifest } from '../../index/manifest.js';
import type { SelectKind } from '../../query/ast.js';
import type { ShardPlan } from '../../shard/plan.js';
import { Collector } from '../collector.js';
import { planBasicQuery } from '../plan.js';
import { rankFileMatches, truncateToLimit } from '../rank.js';
import { NOTHING_FOUND, type Found, type SearchScope, type Searcher } from '../searcher.js';
import { isSymbolSelect, withSymbolPlan } from '../symbol-plan.js';
import { selectSymbols } from '../symbol-results.js';
import { refuseCommitOnlyFilters } from './commit-only-filters.js';
import { searchTarget, type FanoutDeps } from './shard-fanout.js';

export interface FileSearchDeps extends FanoutDeps {
  readonly matcher: ShardPlan['matcher'];
}

/** Accepts every query: last in the list, it answers what no other searcher claimed. */
export function createFileSearcher(deps: FileSearchDeps): Searcher {
  return {
    section: 'files',
    accepts: () => true,
    start(scope) {
      const collector = new Collector(scope.limit, scope.stats, scope.request.onMatches);
      return {
        async run(basic, targets) {
          refuseCommitOnlyFilters(basic);
          const planStarted = performance.now();
          const plan = withSymbolPlan(planBasicQuery(basic, { matcher: scope.request.matcher ?? deps.matcher }), basic);
          scope.stats.planMs += performance.now() - planStarted;
          await Promise.all(targets.map((target) => searchTarget(deps, target, plan, collector, scope.bounds.deadline, scope.request.signal)));
          return NOTHING_FOUND;
        },
        finish: () => listFiles(collector, scope),
      };
    },
  };
}

/** Ranked, cut to the limit, and converted by the first alternative's select:. */
function listFiles(collector: Collector, scope: SearchScope): Found {
  const { files, cut } = truncateToLimit(rankFileMatches([...collector.files.values()]), scope.limit);
  const select = scope.query.basics[0]!.filters.select;
  const symbolFiles = isSymbolSelect(select) ? selectSymbols(files, select) : null;
  return {
    matches: symbolFiles ?? applySelect(select, files, scope.manifests),
    matchCount: (symbolFiles ?? files).reduce((n, f) => n + f.matchCount, 0),
    limitHit: collector.limitHit || cut,
    timedOut: collector.timedOut,
    failedRepos: [...collector.failedRepos],
  };
}

function applySelect(select: SelectKind | null, files: FileMatch[], manifests: readonly Manifest[]): SearchMatch[] {
  if (select === 'repo') {
    const byId = new Map(manifests.map((m) => [m.repoId, m]));
    const seen = new Set<number>();
    return files.filter((f) => !seen.has(f.repositoryID) && seen.add(f.repositoryID)).map((f) => ({
      type: 'repo' as const, repository: f.repository, repositoryID: f.repositoryID, branches: f.branches,
      fork: byId.get(f.repositoryID)?.fork ?? false, archived: byId.get(f.repositoryID)?.archived ?? false,
    }));
  }
  if (select === 'file') return files.map((f) => ({ ...f, type: 'path' as const, lineMatches: [], matchCount: 1 }));
  return files;
}
