/**
 * The `diff_search` tool: added and removed lines (never messages) matching a pattern in the
 * history of the given repositories, newest commits first, each hunk with numbered lines and the
 * match ranges, within the answer budget and with honest totals.
 */
import { isQuarryError } from '../../../errors.js';
import { anyOf, CommitFilterBuilder, type CommitFilter } from '../../../history/commit-filter.js';
import { parseDate } from '../../../history/dates.js';
import { compileDiffPattern } from '../../../history/diff-match.js';
import type { DiffSearchOutcome } from '../../../history/repo-diff-search.js';
import type { CommitHit } from '../../../history/diff-model.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { AFTER_DATE_ARG, BEFORE_DATE_ARG, REPOS_ARG } from './common-args.js';
import { diffService } from './diff-repos.js';
import { resolveRepoName } from './closest-names.js';
import { commitSections } from './diff-results.js';

export interface DiffSearchArgs {
  readonly pattern: string;
  readonly repos: readonly string[];
  readonly added?: boolean;
  readonly removed?: boolean;
  readonly author?: string;
  readonly authors?: readonly string[];
  readonly after?: string;
  readonly before?: string;
  readonly revisions?: readonly string[];
  readonly count?: number;
  readonly useRegex?: boolean;
}

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 50;
const SEARCH_TIMEOUT_MS = 20_000;

const DESCRIPTION = `Searches the lines commits added or removed (not messages: see commit_search) in the history of repositories, newest commit first.
Per commit and file: "# repo – commit – path", the author, date and subject, then the matching hunks with numbered +/- lines and a "matches:" line of line:start-end character ranges (0-based, end excluded). Merge commits are searched against their first parent.
Example: {"pattern":"func parseConfig","repos":["github.com/acme/app"],"removed":true}`;

export const diffSearchTool: ToolDefinition<DiffSearchArgs> = {
  name: 'diff_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    pattern: { type: 'string', description: 'Text to find, literal and case-insensitive (RE2 with useRegex).' },
    repos: { ...REPOS_ARG, maxItems: 50 },
    added: { type: 'boolean', description: 'Only added lines.' },
    removed: { type: 'boolean', description: 'Only removed lines.' },
    author: { type: 'string', description: 'Author name or email contains this (case-insensitive).' },
    authors: { type: 'array', items: { type: 'string' }, maxItems: 20, description: 'Any of these authors, each as author.' },
    after: AFTER_DATE_ARG,
    before: BEFORE_DATE_ARG,
    revisions: { type: 'array', items: { type: 'string' }, maxItems: 20, description: 'Branches, tags or commits whose history to search (default: the default branch); ^rev leaves out the history of rev.' },
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, description: `Commits to return (default ${DEFAULT_COUNT}).` },
    useRegex: { type: 'boolean', description: 'pattern and authors are regular expressions.' },
  }, ['pattern', 'repos']),
  async run(args, ctx) {
    const diffs = diffService(ctx);
    if (args.repos.length === 0) throw new ToolError('Give at least one repository in repos. Use list_repos to find repository names.');
    const repos = [...new Set(args.repos)].map((repo) => resolveRepoName(ctx, repo));
    const useRegex = args.useRegex ?? false;
    const pattern = compileDiffPattern(args.pattern, { regex: useRegex, caseSensitive: false });
    const authorTerms = [...(args.author === undefined ? [] : [args.author]), ...(args.authors ?? [])].filter((a) => a.trim() !== '');
    const count = args.count ?? DEFAULT_COUNT;
    const query = {
      pattern,
      added: args.added ?? false,
      removed: args.removed ?? false,
      metadata: authorFilter(authorTerms, useRegex),
      after: args.after === undefined ? null : new Date(parseDate(args.after) * 1000),
      before: args.before === undefined ? null : new Date(parseDate(args.before) * 1000),
      revisions: args.revisions ?? [],
      count,
      deadline: Date.now() + SEARCH_TIMEOUT_MS,
      signal: ctx.signal,
    };
    const outcomes: { repo: string; outcome: DiffSearchOutcome }[] = [];
    for (const repo of repos) outcomes.push({ repo, outcome: await diffs.searchDiffs(repo, query) });
    const hits = outcomes.flatMap(({ repo, outcome }) => outcome.commits.map((hit) => ({ repo, hit })))
      .sort((a, b) => Date.parse(b.hit.commit.committerDate) - Date.parse(a.hit.commit.committerDate));
    const shown = hits.slice(0, count);
    const limitHit = hits.length > count || outcomes.some((o) => o.outcome.limitHit);
    if (shown.length === 0) return { text: [noResults(args.pattern, repos), footer(outcomes, 0, limitHit, count, 0)].filter(Boolean).join('\n') + '\n' };

    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let omittedCommits = 0;
    for (const { repo, hit } of shown) {
      if (!addCommit(builder, ctx.origin, repo, hit)) omittedCommits++;
    }
    return { text: builder.finish(footer(outcomes, shown.length - omittedCommits, limitHit, count, omittedCommits), '\n') };
  },
};

function addCommit(builder: AnswerBuilder, origin: string, repo: string, hit: CommitHit): boolean {
  let added = false;
  for (const section of commitSections(origin, repo, hit)) if (builder.add(section)) added = true;
  return added;
}

/** Any of the authors (OR), as substrings or, with useRegex, regular expressions; matched by the worker pool. */
function authorFilter(terms: readonly string[], useRegex: boolean): CommitFilter | null {
  const builder = new CommitFilterBuilder(false);
  try {
    const any = anyOf(terms.map((term) => builder.atom('author', term, { regex: useRegex })));
    return any === null ? null : builder.build([any]);
  } catch (err) {
    if (!isQuarryError(err, 'PATTERN_INVALID')) throw err;
    throw new ToolError(`Invalid author ${err.message}. Fix it, or set useRegex to false to match the text literally.`);
  }
}

function noResults(pattern: string, repos: readonly string[]): string {
  return `No added or removed lines match "${pattern}" in ${repos.join(', ')}.`;
}

function footer(outcomes: readonly { outcome: DiffSearchOutcome }[], shown: number, limitHit: boolean, count: number, omitted: number): string | null {
  const notes: string[] = [];
  const timedOut = outcomes.filter((o) => o.outcome.timedOut);
  if (shown > 0) notes.push(`Showing ${plural(shown, 'matching commit')}${limitHit ? ' (more exist' + (count < MAX_COUNT ? `: raise count, up to ${MAX_COUNT}, or narrow with after, before, authors or revisions)` : ': narrow with after, before, authors or revisions)') : ''}.`);
  if (omitted > 0) notes.push(`${plural(omitted, 'matching commit')} did not fit the answer budget: lower count or narrow the search.`);
  if (timedOut.length > 0) {
    const scanned = timedOut.reduce((n, o) => n + o.outcome.scanned, 0);
    const candidates = timedOut.reduce((n, o) => n + o.outcome.candidates, 0);
    notes.push(`The search stopped at its time limit after reading ${scanned} of ${candidates} candidate commits: results may be incomplete.`);
  }
  const skipped = outcomes.reduce((n, o) => n + o.outcome.skipped, 0);
  if (skipped > 0) notes.push(`${plural(skipped, 'commit')} too large to read were skipped.`);
  return notes.length === 0 ? null : `(${notes.join(' ')})`;
}
