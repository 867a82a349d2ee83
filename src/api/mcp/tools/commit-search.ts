/**
 * The `commit_search` tool (reference §1.4): commits of named repositories by message, author,
 * changed files, diff content and date, newest first, from the commit index, paged by a cursor
 * that resumes exactly where an answer stopped. Renders only.
 */
import { MAX_CANDIDATES as MAX_CONTENT_CANDIDATES } from '../../../history/content-filter.js';
import { parseDate } from '../../../history/dates.js';
import type { CommitSearchOutcome } from '../../../history/history-service.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { resolveRepoName } from './closest-names.js';
import { AFTER_DATE_ARG, BEFORE_DATE_ARG, NEXT_PAGE_ARG, REPOS_ARG } from './common-args.js';
import { commitBlock, historyOf } from './history-format.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface CommitSearchArgs {
  readonly repos: readonly string[];
  readonly messageTerms?: readonly string[];
  readonly authors?: readonly string[];
  readonly contentTerms?: readonly string[];
  readonly files?: readonly string[];
  readonly after?: string;
  readonly before?: string;
  readonly revisions?: readonly string[];
  readonly count?: number;
  readonly useRegex?: boolean;
  readonly cursor?: string;
}

export const DEFAULT_COUNT = 50;
export const DATED_DEFAULT_COUNT = 100;
export const MAX_COUNT = 100;

const DESCRIPTION = `Searches commits by message, author, changed files, diff content and date, newest first. Parameters are ANDed; the values of one parameter are ORed. Terms match case-insensitive substrings (regexes with useRegex); authors match "Name <email>".
Each commit: repository, short hash, date, author and message start.
Example: {"repos":["github.com/acme/app"],"messageTerms":["fix"],"files":["parser"],"after":"1 month ago"}`;

const terms = (description: string) => ({ type: 'array' as const, items: { type: 'string' as const }, description });

export const commitSearchTool: ToolDefinition<CommitSearchArgs> = {
  name: 'commit_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repos: REPOS_ARG,
    messageTerms: terms('Terms in the message.'),
    authors: terms('Author names or emails.'),
    contentTerms: terms('Terms in the lines the commit added or removed.'),
    files: terms('Paths the commit changed.'),
    after: AFTER_DATE_ARG,
    before: BEFORE_DATE_ARG,
    revisions: terms('Branches, tags, commits or ref globs (*refs/heads/*) to search (default: the default branch); ^rev leaves out what rev reaches.'),
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, description: `Commits to return (default ${DEFAULT_COUNT}, or ${DATED_DEFAULT_COUNT} with after or before).` },
    useRegex: { type: 'boolean', description: 'Terms are regular expressions.' },
    cursor: NEXT_PAGE_ARG,
  }, ['repos']),
  async run(args, ctx) {
    const history = historyOf(ctx);
    const repos = [...new Set(args.repos.map((r) => r.trim()).filter((r) => r !== '').map((r) => resolveRepoName(ctx, r)))];
    if (repos.length === 0) throw new ToolError('Pass at least one repository in repos. Use list_repos to find repository names.');
    const dated = args.after !== undefined || args.before !== undefined;
    const count = args.count ?? (dated ? DATED_DEFAULT_COUNT : DEFAULT_COUNT);
    const question = questionOf(args, repos);
    const start = args.cursor === undefined ? 0 : decodeCursor(args.cursor, question, 'cursor', 'commit_search');
    const contentTerms = args.contentTerms ?? [];
    const outcome = await history.searchCommits({
      repos, canRead: ctx.principal.canRead, count, start, contentTerms, revisions: args.revisions ?? [],
      criteria: {
        messageTerms: args.messageTerms ?? [], authors: args.authors ?? [], committers: [], files: args.files ?? [],
        useRegex: args.useRegex ?? false,
        ...(args.after !== undefined ? { after: parseDate(args.after) } : {}),
        ...(args.before !== undefined ? { before: parseDate(args.before) } : {}),
      },
    });
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = 0;
    while (shown < outcome.commits.length && builder.add(`${commitBlock(outcome.commits[shown]!)}\n`)) shown++;
    const budgetSpent = shown < outcome.commits.length;
    const next = budgetSpent ? outcome.commits[shown]!.position : outcome.next;
    const notes: string[] = [];
    if (outcome.commits.length === 0) notes.push(start === 0 && next === null ? `No commits match in ${repos.join(', ')}.` : 'No more commits match here.');
    else notes.push(shownNote({ shown, start, next, budgetSpent, outcome, byContent: contentTerms.length > 0, budget: ctx.maxAnswerTokens }));
    if (next !== null) {
      const raise = !budgetSpent && count < MAX_COUNT ? ` (or raise count, up to ${MAX_COUNT})` : '';
      notes.push(`More commits ${outcome.commits.length === 0 ? 'may ' : ''}match: call commit_search with the same arguments and cursor: "${encodeCursor(question, next)}"${raise} to see the next ones.`);
    }
    return { text: builder.finish(notes.join('\n')) };
  },
};

/** The arguments that choose which commits match, in a fixed order: a cursor belongs to exactly this question. */
function questionOf(args: CommitSearchArgs, repos: readonly string[]): string {
  return JSON.stringify([repos, args.messageTerms ?? [], args.authors ?? [], args.contentTerms ?? [], args.files ?? [], args.after ?? null, args.before ?? null, args.revisions ?? [], args.useRegex ?? false]);
}

interface ShownPage {
  readonly shown: number;
  readonly start: number;
  readonly next: number | null;
  readonly budgetSpent: boolean;
  readonly outcome: CommitSearchOutcome;
  readonly byContent: boolean;
  readonly budget: number;
}

/**
 * Without content terms every candidate matched, so a page's place among all matches is known;
 * content terms are checked a window of candidates at a time, so later pages count from where they start.
 */
function shownNote({ shown, start, next, budgetSpent, outcome, byContent, budget }: ShownPage): string {
  const spent = budgetSpent ? ` (the answer budget of ${plural(budget, 'token')} is spent)` : '';
  if (!byContent || (start === 0 && outcome.totalExact)) {
    const total = start + outcome.totalCount;
    if (start === 0 && next === null) return `${plural(total, 'commit')} matched.`;
    return `Showing commits ${start + 1}-${start + shown} of ${total}${spent}.`;
  }
  const total = `${outcome.totalExact ? '' : 'at least '}${outcome.totalCount}`;
  const checked = outcome.totalExact ? '' : ` (content terms were checked on the next ${MAX_CONTENT_CANDIDATES} candidate commits; the cursor continues with the rest)`;
  return `Showing ${shown} of ${total} matching commits${start > 0 ? ' from here on' : ''}${spent}${checked}.`;
}
