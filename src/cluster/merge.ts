/**
 * Merges the search nodes' answers into one response, in the order one node would list them:
 * repositories, then commits (newest first), then files ranked as search/rank.ts ranks them and cut
 * to the limit; statistics summed; notices said once; repositories nobody answered for named.
 */
import type { CommitMatch, FileMatch, RepoMatch, SearchMatch, SearchResponse, SkippedNotice } from '../model/result.js';
import { addStats, emptyStats, type SearchStats } from '../model/stats.js';
import { rankFileMatches, truncateToLimit } from '../search/rank.js';

/** Repositories no search node answered for, grouped by why. */
export type Unanswered = ReadonlyMap<string, readonly string[]>;

export function mergeAnswers(responses: readonly SearchResponse[], limit: number, query: string, unanswered: Unanswered, stats: SearchStats = emptyStats()): SearchResponse {
  const repos = new Map<number, RepoMatch>();
  const commits = new Map<string, CommitMatch>();
  const files: FileMatch[] = [];
  for (const response of responses) {
    addStats(stats, response.stats);
    for (const match of response.matches) {
      if (match.type === 'repo') repos.set(match.repositoryID, match);
      else if (match.type === 'commit') commits.set(`${match.repositoryID}\0${match.oid}`, match);
      else files.push(match);
    }
  }
  const { files: kept, cut } = truncateToLimit(rankFileMatches(files), limit);
  const commitList = [...commits.values()].sort((a, b) => Date.parse(b.committerDate) - Date.parse(a.committerDate));
  const cutCommits = commitList.length > limit;
  const matches: SearchMatch[] = [
    ...[...repos.values()].sort((a, b) => (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : 0)),
    ...commitList.slice(0, limit),
    ...kept,
  ];
  const limitHit = cut || cutCommits || responses.some((r) => r.limitHit);
  return {
    matches,
    matchCount: matches.reduce((n, m) => n + (m.type === 'repo' ? 1 : m.matchCount), 0),
    limitHit,
    skipped: [...onceEach(responses.flatMap((r) => r.skipped), limitHit), ...unansweredNotices(unanswered)],
    stats,
    query,
  };
}

/** Each node reports the limit and timeout notices of its own share; the response says each once. */
function onceEach(notices: readonly SkippedNotice[], limitHit: boolean): SkippedNotice[] {
  const seen = new Map<string, SkippedNotice>();
  for (const notice of notices) seen.set(`${notice.reason}\0${notice.title}\0${notice.message}`, notice);
  const out = [...seen.values()];
  // A cut made here, after every node stayed under the limit, is a limit hit all the same.
  if (limitHit && !out.some((n) => n.reason === 'shard-match-limit')) {
    out.unshift({
      reason: 'shard-match-limit', title: 'result limit hit', severity: 'info',
      message: 'Not all results have been returned due to hitting a match limit. Sourcegraph has limits for the number of results returned from a line, document and repository.',
      suggested: { title: 'increase limit', queryExpression: 'count:all' },
    });
  }
  return out;
}

function unansweredNotices(unanswered: Unanswered): SkippedNotice[] {
  return [...unanswered].map(([why, repos]) => ({
    reason: 'shard-failed' as const,
    title: `${repos.length} ${repos.length === 1 ? 'repository' : 'repositories'} not searched`,
    message: `No search node holding ${repos.length === 1 ? 'it' : 'them'} answered (${why}): ${[...repos].sort().join(', ')}; results are partial.`,
    severity: 'warn' as const,
  }));
}
