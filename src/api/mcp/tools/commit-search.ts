/**
 * The `commit_search` tool (reference §1.4): commits of named repositories by message, author,
 * changed files, diff content and date, newest first, from the commit index. Renders only.
 */
import { parseDate } from '../../../history/dates.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
import { commitBlock, historyOf } from './history-format.js';

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
  }, ['repos']),
  async run(args, ctx) {
    const history = historyOf(ctx);
    const repos = [...new Set(args.repos.map((r) => r.trim()).filter((r) => r !== ''))];
    if (repos.length === 0) throw new ToolError('Pass at least one repository in repos. Use list_repos to find repository names.');
    const dated = args.after !== undefined || args.before !== undefined;
    const count = args.count ?? (dated ? DATED_DEFAULT_COUNT : DEFAULT_COUNT);
    const outcome = await history.searchCommits({
      repos, canRead: ctx.principal.canRead, count, contentTerms: args.contentTerms ?? [], revisions: args.revisions ?? [],
      criteria: {
        messageTerms: args.messageTerms ?? [], authors: args.authors ?? [], committers: [], files: args.files ?? [],
        useRegex: args.useRegex ?? false,
        ...(args.after !== undefined ? { after: parseDate(args.after) } : {}),
        ...(args.before !== undefined ? { before: parseDate(args.before) } : {}),
      },
    });
    if (outcome.commits.length === 0) return { text: `No commits match in ${repos.join(', ')}.\n` };
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = 0;
    while (shown < outcome.commits.length && builder.add(`${commitBlock(outcome.commits[shown]!)}\n`)) shown++;
    const total = outcome.totalExact ? plural(outcome.totalCount, 'commit') : `at least ${plural(outcome.totalCount, 'commit')}`;
    const notes: string[] = [];
    if (shown < outcome.commits.length) notes.push(`Showing ${shown} of ${total} (the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent); narrow the search to see the rest.`);
    else if (outcome.limitHit) notes.push(`Showing the newest ${shown} of ${total} (limit hit); narrow the search${count < MAX_COUNT ? ` or raise count (max ${MAX_COUNT})` : ''} to see more.`);
    else notes.push(`${plural(outcome.totalCount, 'commit')} matched.`);
    if (!outcome.totalExact) notes.push('Content terms were checked on the newest candidate commits only.');
    return { text: builder.finish(notes.join('\n')) };
  },
};
