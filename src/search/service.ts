/**
 * The search service: parse → per basic query select repositories and plan → fan shard tasks out
 * to the pool → collect → rank → limit. Runs on the main thread and never scans content itself.
 */
import { createError, isQuarryError } from '../errors.js';
import type { FileMatch, SearchMatch, SearchResponse } from '../model/result.js';
import type { Manifest } from '../index/manifest.js';
import { emptyStats } from '../model/stats.js';
import type { BasicQuery, Query } from '../query/ast.js';
import { parseQuery, queryToString } from '../query/index.js';
import type { ShardTask } from '../pool/messages.js';
import type { ShardPlan } from '../shard/plan.js';
import { Collector, type RepoContext } from './collector.js';
import { searchCommitQuery, type CommitSearcher } from './commit-search.js';
import { searchDiffQuery, type DiffSearcher } from './diff-search.js';
import type { CatalogView, RevisionSource, SearchRequest, SearchService, ShardRunner } from './contracts.js';
import { limitNotices } from './notices.js';
import { planBasicQuery } from './plan.js';
import { rankFileMatches, truncateToLimit } from './rank.js';
import { repoMatches } from './repo-results.js';
import { selectRepos, type RepoTarget } from './select-repos.js';
import { isSymbolSelect, withSymbolPlan } from './symbol-plan.js';
import { selectSymbols } from './symbol-results.js';
import { segmentRanges } from './tasks.js';

export interface SearchDeps {
  readonly catalog: CatalogView;
  readonly runner: ShardRunner;
  readonly revisions: RevisionSource;
  readonly matcher: ShardPlan['matcher'];
  /** Read per search, so the site configuration applies without a restart. */
  readonly settings: () => SearchSettings;
  /** The commit index behind type:commit; without it such queries are QUERY_UNSUPPORTED. */
  readonly commits?: CommitSearcher;
  /** Commit index plus git directories behind type:diff; without it such queries are QUERY_UNSUPPORTED. */
  readonly diffs?: DiffSearcher;
}

export interface SearchSettings {
  /** Match limit when neither the query (count:) nor the front door sets one. */
  readonly maxResults: number;
  /** The most matches a search collects, whatever count: asks (count:all included): results are held in memory. */
  readonly maxCount: number;
  readonly defaultTimeoutMs: number;
  /** timeout: values above this are cut down to it. */
  readonly maxTimeoutMs: number;
}
const UNINDEXED_BATCH_BYTES = 8 * 1024 * 1024;

export function createSearchService(deps: SearchDeps): SearchService {
  return { search: (request) => runSearch(deps, request) };
}

async function runSearch(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  const started = performance.now();
  const stats = emptyStats();
  const query: Query = parseQuery(request.query, { defaultPatternType: request.patternType ?? 'keyword' });
  stats.parseMs = performance.now() - started;
  const first = query.basics[0]!.filters;
  const settings = deps.settings();
  const limit = Math.min(first.count === 'all' ? Infinity : first.count ?? request.defaultLimit ?? settings.maxResults, settings.maxCount);
  const deadline = Date.now() + Math.min(first.timeoutMs ?? settings.defaultTimeoutMs, settings.maxTimeoutMs);
  const bounds = { deadline, ...(request.signal ? { signal: request.signal } : {}) };
  const collector = new Collector(limit, stats, request.onMatches);
  const canRead = request.canRead;
  const manifests = canRead ? deps.catalog.list().filter((m) => canRead(m.repo)) : deps.catalog.list();
  const repoResults = [];
  const commitResults = [];
  let commitLimitHit = false;
  for (const basic of query.basics) {
    const selection = await selectRepos(manifests, basic.filters, deps.runner, bounds);
    stats.shardsSkipped += manifests.length - selection.targets.length;
    collector.notices.push(...selection.notices);
    if (basic.filters.types.includes('commit')) {
      const found = await searchCommitQuery(deps.commits, basic, selection.targets, limit, deps.runner, bounds);
      commitResults.push(...found.matches);
      commitLimitHit ||= found.limitHit;
      continue;
    }
    if (basic.filters.types.includes('diff')) {
      const found = await searchDiffQuery(deps.diffs, basic, selection.targets, { limit, deadline, ...(request.signal ? { signal: request.signal } : {}) });
      commitResults.push(...found.matches);
      commitLimitHit ||= found.limitHit;
      collector.timedOut ||= found.timedOut;
      continue;
    }
    rejectUnsupported(basic);
    if (isRepoSearch(basic)) {
      repoResults.push(...(await repoMatches(basic, selection.targets, deps.runner, bounds)));
      continue;
    }
    const planStarted = performance.now();
    const plan = withSymbolPlan(planBasicQuery(basic, { matcher: request.matcher ?? deps.matcher }), basic);
    stats.planMs += performance.now() - planStarted;
    await Promise.all(selection.targets.map((target) => searchTarget(deps, target, plan, collector, deadline, request.signal)));
  }
  const mergeStarted = performance.now();
  const ranked = rankFileMatches([...collector.files.values()]);
  const { files, cut } = truncateToLimit(ranked, limit);
  const symbolFiles = isSymbolSelect(first.select) ? selectSymbols(files, first.select) : null;
  const matches = [...dedupeRepos(repoResults), ...commitResults, ...(symbolFiles ?? applySelect(first.select, files, manifests))];
  const limitHit = collector.limitHit || cut || commitLimitHit;
  stats.mergeMs = performance.now() - mergeStarted;
  stats.totalMs = performance.now() - started;
  return {
    matches,
    matchCount: (symbolFiles ?? files).reduce((n, f) => n + f.matchCount, 0) + repoResults.length + commitResults.length,
    limitHit,
    skipped: [...collector.notices, ...limitNotices(limitHit, collector.timedOut || stats.shardsTimedOut > 0, stats.shardsFailed, [...collector.failedRepos])],
    stats,
    query: queryToString(query),
  };
}

/** Commit and diff searches returned before this: what is left is a file, path, repo or symbol search. */
function rejectUnsupported(basic: BasicQuery): void {
  if (basic.filters.commit) {
    throw createError('QUERY_UNSUPPORTED', 'author:, committer:, message:, before: and after: apply only to type:commit and type:diff searches');
  }
  if (basic.filters.select === 'commit.diff.added' || basic.filters.select === 'commit.diff.removed') {
    throw createError('QUERY_UNSUPPORTED', `select:${basic.filters.select} applies only to type:diff searches`);
  }
}

function isRepoSearch(basic: BasicQuery): boolean {
  const { types, repos, files, langs } = basic.filters;
  if (types.includes('repo')) return true;
  return basic.pattern === null && repos.length > 0 && files.length === 0 && langs.length === 0 && types.length === 0;
}

async function searchTarget(deps: SearchDeps, target: RepoTarget, plan: ShardPlan, collector: Collector, deadline: number, signal?: AbortSignal): Promise<void> {
  const { manifest } = target;
  const revs = target.revs.length > 0 ? target.revs : [manifest.branch];
  for (const rev of revs) {
    const commit = rev === manifest.branch || rev === 'HEAD' || rev === manifest.commit ? manifest.commit : await deps.revisions.resolve(manifest.repo, rev);
    const repo: RepoContext = { repository: manifest.repo, repositoryID: manifest.repoId, commit, branches: [rev] };
    if (commit === manifest.commit) {
      await Promise.all(segmentRanges(manifest, deps.runner.threads).map((range) => runTask(deps, collector, repo, signal, {
        source: { kind: 'segment', dir: deps.catalog.segmentDir(range.segmentId) },
        lo: range.lo, hi: range.hi, deleted: range.deleted, plan, limit: collector.remaining, deadline, stop: collector.stop,
      })));
      continue;
    }
    const pending: Promise<void>[] = [];
    await deps.revisions.readBatches(manifest.repo, commit, UNINDEXED_BATCH_BYTES, async (docs) => {
      if (Atomics.load(collector.stop, 0) !== 0) return;
      pending.push(runTask(deps, collector, repo, signal, {
        source: { kind: 'memory', ...docs }, lo: 0, hi: docs.paths.length, deleted: [], plan,
        limit: collector.remaining, deadline, stop: collector.stop,
      }));
    });
    await Promise.all(pending);
  }
}

async function runTask(deps: SearchDeps, collector: Collector, repo: RepoContext, signal: AbortSignal | undefined, task: ShardTask): Promise<void> {
  if (Atomics.load(collector.stop, 0) !== 0) {
    collector.limitHit = true;
    return;
  }
  try {
    collector.add(repo, await deps.runner.submit('shard', { ...task, limit: collector.remaining }, { signal, deadline: task.deadline }));
  } catch (err) {
    if (isQuarryError(err, 'ABORTED')) throw err;
    if (!isQuarryError(err, 'TIMEOUT') && !isQuarryError(err, 'SHARD_CRASHED')) throw err;
    collector.fail(isQuarryError(err, 'TIMEOUT'), repo.repository);
  }
}

function dedupeRepos<T extends { repositoryID: number }>(repos: T[]): T[] {
  const seen = new Set<number>();
  return repos.filter((r) => !seen.has(r.repositoryID) && seen.add(r.repositoryID));
}

function applySelect(select: BasicQuery['filters']['select'], files: FileMatch[], manifests: readonly Manifest[]): SearchMatch[] {
  if (select === 'repo') {
    const byId = new Map(manifests.map((m) => [m.repoId, m]));
    return dedupeRepos(files.map((f) => ({
      type: 'repo' as const, repository: f.repository, repositoryID: f.repositoryID, branches: f.branches,
      fork: byId.get(f.repositoryID)?.fork ?? false, archived: byId.get(f.repositoryID)?.archived ?? false,
    })));
  }
  if (select === 'file') return files.map((f) => ({ ...f, type: 'path' as const, lineMatches: [], matchCount: 1 }));
  return files;
}
