/**
 * `search(query, version, patternType) { results { ... } }`: runs one engine search per
 * `results`, one at a time per request, and maps the SearchResponse onto Sourcegraph's
 * SearchResults shape.
 */
import type { PatternType } from '../../query/ast.js';
import type { LineMatch, SearchMatch, SearchResponse } from '../../model/result.js';
import { commitResultOf, type CommitResultParent } from './commit-resolvers.js';
import { type BlobParent, type FileMatchParent, type Resolvers } from './resolver-kit.js';
import { inSearchLane } from './search-lane.js';
import type { GraphQLContext, RepoInfo } from './services.js';

interface SearchParent { readonly query: string; readonly patternType: PatternType }
interface ResultsParent { readonly response: SearchResponse }

const MAX_FILTERS_PER_KIND = 25;

// Sourcegraph's GraphQL search versions: V1 defaults to regexp, V2 to literal, V3 to standard.
const VERSION_PATTERN: Record<string, PatternType> = { V1: 'regexp', V2: 'literal', V3: 'standard' };

function repoOf(ctx: GraphQLContext, match: SearchMatch): RepoInfo {
  return ctx.services.repos.get(match.repository, ctx.principal.canRead) ?? {
    id: match.repositoryID, name: match.repository, description: '', fork: match.type === 'repo' && match.fork,
    archived: match.type === 'repo' && match.archived, private: false, defaultBranch: match.type === 'commit' ? null : match.branches[0] ?? null,
  };
}

interface Facet { value: string; label: string; count: number; kind: string }

function facets(matches: readonly SearchMatch[]): Facet[] {
  const byValue = new Map<string, Facet>();
  const add = (kind: string, value: string, label: string, count: number): void => {
    const facet = byValue.get(value) ?? { value, label, count: 0, kind };
    facet.count += count;
    byValue.set(value, facet);
  };
  for (const m of matches) {
    const count = m.type === 'repo' ? 1 : m.matchCount;
    add('repo', `repo:^${m.repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, m.repository, count);
    if (m.type !== 'repo' && m.type !== 'commit' && m.language) add('lang', `lang:${m.language.toLowerCase()}`, m.language, count);
  }
  const sorted = [...byValue.values()].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  return ['repo', 'lang'].flatMap((kind) => sorted.filter((f) => f.kind === kind).slice(0, MAX_FILTERS_PER_KIND));
}

export const searchResolvers: Resolvers = {
  Query: {
    search: (_: unknown, args: { query: string; version: string; patternType?: PatternType | null }): SearchParent => ({
      query: args.query,
      patternType: args.patternType ?? VERSION_PATTERN[args.version] ?? 'regexp',
    }),
  },
  Search: {
    async results(parent: SearchParent, _: unknown, ctx: GraphQLContext): Promise<ResultsParent> {
      const request = { query: parent.query, patternType: parent.patternType, canRead: ctx.principal.canRead, signal: ctx.signal };
      return { response: await inSearchLane(ctx, ctx.signal, () => ctx.services.search.search(request)) };
    },
  },
  SearchResults: {
    results: (p: ResultsParent, _: unknown, ctx: GraphQLContext): (FileMatchParent | CommitResultParent | RepoInfo)[] =>
      p.response.matches.map((m) => (m.type === 'repo' ? repoOf(ctx, m) : m.type === 'commit' ? commitResultOf(m, repoOf(ctx, m)) : { match: m, repo: repoOf(ctx, m) })),
    matchCount: (p: ResultsParent) => p.response.matchCount,
    resultCount: (p: ResultsParent) => p.response.matchCount,
    approximateResultCount: (p: ResultsParent) => `${p.response.matchCount}${p.response.limitHit ? '+' : ''}`,
    limitHit: (p: ResultsParent) => p.response.limitHit,
    repositoriesCount: (p: ResultsParent) => new Set(p.response.matches.map((m) => m.repository)).size,
    cloning: () => [],
    missing: () => [],
    timedout: () => [],
    indexUnavailable: () => false,
    // The engine's own wall time for the search, parse to merge.
    elapsedMilliseconds: (p: ResultsParent) => Math.round(p.response.stats.totalMs),
    dynamicFilters: (p: ResultsParent) => facets(p.response.matches).map((f) => ({ ...f, limitHit: false })),
    alert(p: ResultsParent) {
      const notice = p.response.skipped.find((s) => s.severity === 'warn') ?? p.response.skipped[0];
      if (!notice) return null;
      return {
        title: notice.title,
        description: notice.message,
        kind: notice.reason,
        proposedQueries: notice.suggested ? [{ description: notice.suggested.title, query: notice.suggested.queryExpression }] : null,
      };
    },
  },
  SearchResult: {
    __resolveType: (p: FileMatchParent | CommitResultParent | RepoInfo) => ('match' in p ? 'FileMatch' : 'commitMatch' in p ? 'CommitSearchResult' : 'Repository'),
  },
  FileMatch: {
    file: (p: FileMatchParent): BlobParent => ({ repo: p.repo, oid: p.match.commit, path: p.match.path }),
    repository: (p: FileMatchParent) => p.repo,
    lineMatches: (p: FileMatchParent): readonly LineMatch[] => p.match.lineMatches,
    limitHit: () => false,
  },
  LineMatch: {
    preview: (p: LineMatch) => p.line,
    limitHit: () => false,
  },
};
