/**
 * The `diff_search` tool: added and removed lines (never messages) matching a pattern in the
 * history of the given repositories, newest commits first, each change once from the commit that
 * made it (as `git log -G`), each hunk with numbered lines and the match ranges, within the answer
 * budget, paged by a cursor that resumes exactly where the answer stopped.
 */
import { isQuarryError } from '../../../errors.js';
import { anyOf, CommitFilterBuilder, type CommitFilter } from '../../../history/commit-filter.js';
import { parseDate } from '../../../history/dates.js';
import { compileDiffPattern } from '../../../history/diff-match.js';
import type { DiffSearchPage, RepoDiffHit } from '../../../history/diff-service.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { AFTER_DATE_ARG, BEFORE_DATE_ARG, NEXT_PAGE_ARG, REPOS_ARG } from './common-args.js';
import { diffService } from './diff-repos.js';
import { resolveRepoName } from './closest-names.js';
import { commitSections } from './diff-results.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

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
  readonly cursor?: string;
}

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 50;
const SEARCH_TIMEOUT_MS = 20_000;

const DESCRIPTION = `Searches lines commits added or removed (not messages: see commit_search), newest first.
Per commit and file: "# repo – commit – path", author, date and subject, then the matching hunks with numbered +/- lines and "matches:" line:start-end ranges (0-based, end excluded). Merges are not searched, as with git log -G.
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
    revisions: { type: 'array', items: { type: 'string' }, maxItems: 20, description: "Branches, tags or commits to search (default: the default branch); ^rev excludes rev's history." },
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, description: `Commits to return (default ${DEFAULT_COUNT}).` },
    useRegex: { type: 'boolean', description: 'pattern and authors are regular expressions.' },
    cursor: NEXT_PAGE_ARG,
  }, ['pattern', 'repos']),
  async run(args, ctx) {
    const diffs = diffService(ctx);
    if (args.repos.length === 0) throw new ToolError('Give at least one repository in repos. Use list_repos to find repository names.');
    const repos = [...new Set(args.repos)].map((repo) => resolveRepoName(ctx, repo));
    const useRegex = args.useRegex ?? false;
    const pattern = compileDiffPattern(args.pattern, { regex: useRegex, caseSensitive: false });
    const authorTerms = [...(args.author === undefined ? [] : [args.author]), ...(args.authors ?? [])].filter((a) => a.trim() !== '');
    const count = args.count ?? DEFAULT_COUNT;
    const question = questionOf(args, repos, authorTerms);
    const start = args.cursor === undefined ? 0 : decodeCursor(args.cursor, question, 'cursor', 'diff_search');
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
      budgetFull: overBudget(ctx.origin, new AnswerBuilder(ctx.maxAnswerTokens).remainingChars),
    };
    const page = await diffs.searchDiffs(repos, query, start);
    if (page.hits.length === 0) {
      const none = page.timedOut ? 'No matching commit was found before the time limit.' : start === 0 ? noResults(args.pattern, repos) : 'No more commits match.';
      return { text: `${[none, footer(page, { shown: 0, start, next: page.next, question, partial: null, budgetSpent: false })].filter(Boolean).join('\n')}\n` };
    }

    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = 0;
    let partial: string | null = null;
    for (const found of page.hits) {
      const sections = commitSections(ctx.origin, found.repo, found.hit);
      if (addWhole(builder, sections)) {
        shown++;
        continue;
      }
      // The first commit is shown as far as it fits: no later page could show it whole either.
      if (shown === 0) {
        partial = addPart(builder, sections, found);
        shown = 1;
      }
      break;
    }
    const budgetSpent = shown < page.hits.length;
    const next = budgetSpent ? page.hits[shown]!.position : page.next;
    return { text: builder.finish(footer(page, { shown, start, next, question, partial, budgetSpent }), '\n') };
  },
};

/** The arguments that choose which commits match, in a fixed order: a cursor belongs to exactly this question. */
function questionOf(args: DiffSearchArgs, repos: readonly string[], authors: readonly string[]): string {
  return JSON.stringify([args.pattern, repos, args.added ?? false, args.removed ?? false, authors, args.after ?? null, args.before ?? null, args.revisions ?? [], args.useRegex ?? false]);
}

/**
 * Whether the hits found so far no longer all fit in `chars`: the search reads no further than
 * the answer can show, and the next page starts at the first commit left out.
 */
function overBudget(origin: string, chars: number): (hits: readonly RepoDiffHit[]) => boolean {
  const sizes = new WeakMap<RepoDiffHit['hit'], number>();
  return (hits) => {
    let total = 0;
    for (const { repo, hit } of hits) {
      let size = sizes.get(hit);
      if (size === undefined) sizes.set(hit, (size = commitSections(origin, repo, hit).reduce((n, s) => n + s.length, 0)));
      total += size;
    }
    return total > chars;
  };
}

/** All of the commit's file sections, or none. */
function addWhole(builder: AnswerBuilder, sections: readonly string[]): boolean {
  const size = sections.reduce((n, s) => n + s.length, 0);
  if (size > builder.remainingChars) return false;
  for (const section of sections) builder.add(section);
  return true;
}

/** The file sections that fit, the first that does not cut at a line end; a note naming the files cut or left out. */
function addPart(builder: AnswerBuilder, sections: readonly string[], found: RepoDiffHit): string {
  const cutOrLeft: string[] = [];
  for (const section of sections) {
    if (builder.add(section)) continue;
    const path = section.slice(0, section.indexOf('\n')).split(' \u2013 ').slice(2).join(' \u2013 ');
    cutOrLeft.push(path);
    if (cutOrLeft.length > 1) continue;
    const end = section.lastIndexOf('\n', builder.remainingChars - CUT_NOTE.length);
    if (end > 0) builder.add(`${section.slice(0, end + 1)}${CUT_NOTE}`);
  }
  return `Commit ${found.hit.commit.oid.slice(0, 12)} is too large for the answer budget: its matches in ${cutOrLeft.join(', ')} are cut short or not shown.`;
}

const CUT_NOTE = '(cut here: the answer budget is spent)\n';

/** Any of the authors (OR), as substrings or, with useRegex, regular expressions; matched by the worker pool. */
export function authorFilter(terms: readonly string[], useRegex: boolean): CommitFilter | null {
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

interface Shown {
  readonly shown: number;
  readonly start: number;
  /** Where the next page starts, or null when nothing is left. */
  readonly next: number | null;
  readonly question: string;
  readonly partial: string | null;
  readonly budgetSpent: boolean;
}

function footer(page: DiffSearchPage, { shown, start, next, question, partial, budgetSpent }: Shown): string | null {
  const notes: string[] = [];
  const complete = next === null && !page.timedOut;
  if (shown > 0) notes.push(`Showing ${plural(shown, start > 0 ? 'more matching commit' : 'matching commit')}${complete && start === 0 ? ' (all that match)' : ''}.`);
  if (partial !== null) notes.push(partial);
  if (page.timedOut) {
    notes.push(page.candidates === 0 ? 'The search stopped at its time limit while listing the commits.' : `The search stopped at its time limit after reading ${page.scanned} of the ${page.candidates - start} candidate commits left.`);
  }
  if (page.skipped > 0) notes.push(`${plural(page.skipped, 'commit')} too large to read were skipped.`);
  if (next !== null) {
    const spent = budgetSpent ? ' (the answer budget is spent)' : '';
    notes.push(`More commits ${page.timedOut && !budgetSpent ? 'may match' : 'match'}${spent}: call diff_search with the same arguments and cursor: "${encodeCursor(question, next)}" to see the next ones.`);
  } else if (start > 0 && complete && shown > 0) {
    notes.push('No more commits match.');
  }
  return notes.length === 0 ? null : `(${notes.join(' ')})`;
}
