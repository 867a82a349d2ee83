/**
 * The commit searcher, `type:commit`: the query's pattern, author:, committer:, message:, before:
 * and after: become one commit filter, run by the history service over each selected
 * repository's commit index; matches carry the pattern's ranges in the message, found by the
 * worker pool like every regular expression. No git here.
 */
import { createError } from '../../errors.js';
import type { CommitSearchOutcome } from '../../history/history-service.js';
import type { NamedCommitSearch } from '../../history/repo-history.js';
import { matchAtoms, type TextMatchRunner } from '../../history/text-atoms.js';
import type { BasicQuery } from '../../query/ast.js';
import type { RegexPlan } from '../../regex/index.js';
import { commitQueryTerms } from '../commit-terms.js';
import { NOTHING_FOUND, type Found, type SearchBounds, type Searcher } from '../searcher.js';
import type { RepoTarget } from '../select-repos.js';
import { commitCriteria, commitMatch } from './commit-match.js';

/** The commit index behind type:commit. */
export interface CommitSource {
  searchCommits(request: NamedCommitSearch): Promise<CommitSearchOutcome>;
}

/** Without a source the searcher still claims type:commit, so such queries say why they cannot run. */
export function createCommitSearcher(history: CommitSource | undefined, runner: TextMatchRunner): Searcher {
  return {
    section: 'commits',
    accepts: (basic) => basic.filters.types.includes('commit'),
    start: (scope) => ({
      run: (basic, targets) => searchCommits(history, basic, targets, scope.limit, runner, scope.bounds),
    }),
  };
}

async function searchCommits(history: CommitSource | undefined, basic: BasicQuery, targets: readonly RepoTarget[], limit: number, runner: TextMatchRunner, bounds: SearchBounds): Promise<Found> {
  if (!history) throw createError('QUERY_UNSUPPORTED', 'type:commit searches are not available: this engine has no commit index');
  const { filter, highlight } = commitQueryTerms(basic, true);
  const criteria = commitCriteria(basic, filter);
  const outcomes = await Promise.all(targets.map(async (target) => ({
    target,
    outcome: await history.searchCommits({ repos: [target.manifest.repo], criteria, contentTerms: [], revisions: target.revs, count: limit, canRead: () => true, ...bounds }),
  })));
  const hits = outcomes.flatMap(({ target, outcome }) => outcome.commits.map((hit) => ({ hit, id: target.manifest.repoId })))
    .sort((a, b) => b.hit.commit.committerDate - a.hit.commit.committerDate);
  const total = outcomes.reduce((n, o) => n + o.outcome.totalCount, 0);
  const shown = hits.slice(0, limit);
  const ranges = await messageRanges(shown.map(({ hit }) => hit.commit.message), highlight, runner, bounds);
  const matches = shown.map(({ hit, id }, i) => commitMatch(hit.repository, id, hit.commit, ranges[i]!));
  return { ...NOTHING_FOUND, matches, matchCount: matches.length, limitHit: total > matches.length };
}

/** Where the pattern's positive atoms match each message's lines, as [line, start, length] in UTF-16 units. */
async function messageRanges(messages: readonly string[], highlight: readonly RegexPlan[], runner: TextMatchRunner, bounds: SearchBounds): Promise<[number, number, number][][]> {
  if (highlight.length === 0 || messages.length === 0) return messages.map(() => []);
  const lines = messages.flatMap((message, owner) => message.split('\n').map((text, line) => ({ text, owner, line })));
  const found = await matchAtoms(runner, { texts: lines.map((l) => l.text) }, highlight, { ...bounds, ranges: true });
  const out = messages.map((): [number, number, number][] => []);
  lines.forEach(({ owner, line }, text) => {
    for (let atom = 0; atom < highlight.length; atom++) {
      for (const [start, end] of found.ranges(atom, text)) if (end > start) out[owner]!.push([line, start, end - start]);
    }
  });
  return out.map((ranges) => ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
}
