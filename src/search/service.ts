/**
 * The search service: parse → per basic query select repositories and hand them to the first
 * searcher that accepts it → list what the searchers found → limit notices. Runs on the main
 * thread and never scans content itself; what each kind of search does lives in its searcher.
 */
import { createError } from '../errors.js';
import type { SearchMatch, SearchResponse, SkippedNotice } from '../model/result.js';
import { emptyStats } from '../model/stats.js';
import { onMainThreadOf } from '../pool/main-thread-budget.js';
import { ownerOf } from '../pool/work-owner.js';
import type { Query } from '../query/ast.js';
import { parseQuery, queryToString } from '../query/index.js';
import type { ShardPlan } from '../shard/plan.js';
import type { CatalogView, RevisionSource, SearchRequest, SearchService, ShardRunner } from './contracts.js';
import { limitNotices } from './notices.js';
import { SECTIONS, type Found, type Searcher, type SearcherRun, type SearchScope, type Section } from './searcher.js';
import { createCommitSearcher, type CommitSource } from './searchers/commit.js';
import { createDiffSearcher, type DiffSource } from './searchers/diff.js';
import { createFileSearcher } from './searchers/files.js';
import { createRepoSearcher } from './searchers/repo.js';
import { selectRepos } from './select-repos.js';

export interface SearchDeps {
  readonly catalog: CatalogView;
  readonly runner: ShardRunner;
  readonly revisions: RevisionSource;
  readonly matcher: ShardPlan['matcher'];
  /** Read per search, so the site configuration applies without a restart. */
  readonly settings: () => SearchSettings;
  /** The commit index behind type:commit; without it such queries are QUERY_UNSUPPORTED. */
  readonly commits?: CommitSource;
  /** Commit index plus git directories behind type:diff; without it such queries are QUERY_UNSUPPORTED. */
  readonly diffs?: DiffSource;
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

/**
 * The kinds of search, in the order they are asked: a query naming several of type:commit,
 * type:diff and type:repo is searched as the first of them here. Files last, since they take
 * every query the others leave.
 */
export function defaultSearchers(deps: SearchDeps): Searcher[] {
  return [
    createCommitSearcher(deps.commits, deps.runner),
    createDiffSearcher(deps.diffs),
    createRepoSearcher(deps.runner),
    createFileSearcher(deps),
  ];
}

export function createSearchService(deps: SearchDeps, searchers: readonly Searcher[] = defaultSearchers(deps)): SearchService {
  return { search: (request) => runSearch(deps, searchers, request) };
}

async function runSearch(deps: SearchDeps, searchers: readonly Searcher[], request: SearchRequest): Promise<SearchResponse> {
  const started = performance.now();
  const stats = emptyStats();
  // A long query takes milliseconds to parse (and as long to refuse): the caller's main-thread time.
  const query: Query = onMainThreadOf(ownerOf(request.signal), () => parseQuery(request.query, { defaultPatternType: request.patternType ?? 'keyword' }));
  stats.parseMs = performance.now() - started;
  const first = query.basics[0]!.filters;
  const settings = deps.settings();
  const limit = Math.min(first.count === 'all' ? Infinity : first.count ?? request.defaultLimit ?? settings.maxResults, settings.maxCount);
  const deadline = Math.min(request.deadline ?? Infinity, Date.now() + Math.min(first.timeoutMs ?? settings.defaultTimeoutMs, settings.maxTimeoutMs));
  const bounds = { deadline, ...(request.signal ? { signal: request.signal } : {}) };
  const canRead = request.canRead;
  const manifests = canRead ? deps.catalog.list().filter((m) => canRead(m.repo)) : deps.catalog.list();
  const scope: SearchScope = { query, request: streamable(query, request), limit, bounds, manifests, stats };
  const notices: SkippedNotice[] = [];
  const runs = new Map<Searcher, SearcherRun>();
  const reports: Report[] = [];
  for (const basic of query.basics) {
    const selection = await selectRepos(manifests, basic.filters, deps.runner, bounds);
    stats.shardsSkipped += manifests.length - selection.targets.length;
    notices.push(...selection.notices);
    const searcher = searchers.find((s) => s.accepts(basic));
    if (!searcher) throw createError('QUERY_UNSUPPORTED', `no searcher of this engine answers ${queryToString({ basics: [basic] })}`);
    const run = runs.get(searcher) ?? searcher.start(scope);
    runs.set(searcher, run);
    reports.push({ section: searcher.section, found: await run.run(basic, selection.targets) });
  }
  const mergeStarted = performance.now();
  for (const searcher of searchers) {
    const finished = runs.get(searcher)?.finish?.();
    if (finished) reports.push({ section: searcher.section, found: finished });
  }
  const found = reports.map((r) => r.found);
  const matches = listed(reports);
  const limitHit = found.some((f) => f.limitHit);
  const timedOut = found.some((f) => f.timedOut) || stats.shardsTimedOut > 0;
  stats.mergeMs = performance.now() - mergeStarted;
  stats.totalMs = performance.now() - started;
  return {
    matches,
    matchCount: found.reduce((n, f) => n + f.matchCount, 0),
    limitHit,
    skipped: [...notices, ...limitNotices(limitHit, timedOut, stats.shardsFailed, found.flatMap((f) => f.failedRepos))],
    stats,
    query: queryToString(query),
  };
}

interface Report {
  readonly section: Section;
  readonly found: Found;
}

/** Section by section; within one, in the order the searchers reported. */
function listed(reports: readonly Report[]): SearchMatch[] {
  return SECTIONS.flatMap((section) => reports.filter((r) => r.section === section).flatMap((r) => r.found.matches));
}

/** With `select:` the final results differ in kind from what shards find (repos, not lines): such a search sends its matches once, at the end. */
export function streamable(query: Query, request: SearchRequest): SearchRequest {
  if (request.onMatches === undefined || query.basics.every((basic) => basic.filters.select === null)) return request;
  const { onMatches: _unused, ...unstreamed } = request;
  return unstreamed;
}
