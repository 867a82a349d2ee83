/**
 * The `commit_search` tool (reference §1.4): commits of named repositories by message, author,
 * changed files, diff content and date, newest first, from the commit index. Renders only.
 */
import { parseDate } from '../../../history/dates.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { AFTER_DATE_ARG, BEFORE_DATE_ARG, REPOS_ARG } from './common-args.js';
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

const DESCRIPTION = `Searches commits by message, author, changed files, diff content and date, newest first. Parameters are ANDed; the values of one parameter are ORed. Terms match case-insensitive substrings (regexes with useRegex); authors match "Name <email>".
Each commit: repository, short hash, date, author, subject and the first lines of the message.
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
