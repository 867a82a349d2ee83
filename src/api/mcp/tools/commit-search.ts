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
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
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

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
Searches commits in one or more repositories by commit message, author, changed files, diff content and date.
All parameter types are combined with AND, but within each parameter type, multiple values use OR.
Message, author and file terms match case-insensitively as substrings (or as regular expressions with useRegex); authors match "Name <email>".
contentTerms find commits whose diff adds or removes a line matching a term (not the message).
Dates accept forms such as "2 weeks ago", "1 month ago", "yesterday", "2024-01-31", "01/31/2024", "november 2023" or RFC 3339; they bound the commit date.
Searches the default branch unless revisions names branches, tags, commits or ref globs (e.g. "*refs/heads/*"); "^v1.0" excludes what a revision reaches.
Returns one block per commit, newest first: repository, short hash, date and author, then the subject and the first lines of the message.
When more commits match, the answer ends with a cursor: call again with the same arguments and cursor set to it.

Examples:
<examples>
\t<example>
\t\t<user>Which commits fixed the parser in github.com/foo/bar last month?</user>
\t\t<response>Calls commit_search with repos: ["github.com/foo/bar"], messageTerms: ["fix"], files: ["parser"], after: "1 month ago"</response>
\t</example>
\t<example>
\t\t<user>What did alice commit since 2024?</user>
\t\t<response>Calls commit_search with repos: ["github.com/foo/bar"], authors: ["alice"], after: "2024-01-01"</response>
\t</example>
</examples>`;

const terms = (description: string) => ({ type: 'array' as const, items: { type: 'string' as const }, description });

export const commitSearchTool: ToolDefinition<CommitSearchArgs> = {
  name: 'commit_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repos: terms('REQUIRED: Repositories to search in (e.g., ["github.com/gohugoio/hugo"]). Multiple repositories will be combined with OR logic.'),
    messageTerms: terms('Terms to search for in commit messages. Multiple terms are combined with OR logic.'),
    authors: terms('Authors to filter by (name or email, partial match). Multiple authors are combined with OR logic.'),
    contentTerms: terms('Terms to search for in the added or removed lines of the commit diff. Multiple terms are combined with OR logic.'),
    files: terms('File paths changed by the commit (partial match). Multiple paths are combined with OR logic.'),
    after: { type: 'string', description: 'Only commits after this date (e.g., "1 month ago", "2024-01-31", "01/31/2024", "november 2023").' },
    before: { type: 'string', description: 'Only commits before this date (same forms as after).' },
    revisions: terms('Branches, tags, or ref globs to search (default: the default branch).'),
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, description: `Number of results to return (max ${MAX_COUNT}). Defaults to ${DEFAULT_COUNT}, or ${DATED_DEFAULT_COUNT} with date filters.` },
    useRegex: { type: 'boolean', description: 'Treat message, author, file and content terms as regular expressions (default: false).' },
    cursor: { type: 'string', description: 'The cursor a previous commit_search answer gave, to see the commits after the ones it showed.' },
  }, ['repos']),
  async run(args, ctx) {
    const history = historyOf(ctx);
    const repos = [...new Set(args.repos.map((r) => r.trim()).filter((r) => r !== ''))];
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
