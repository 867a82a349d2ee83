/**
 * The `get_contributor_repos` tool (reference §1.4): repositories the caller may read where an
 * author (name or e-mail, case-insensitive partial match) has default-branch commits, most first,
 * paged by `limit` and an `after` cursor.
 */
import { AnswerBuilder, estimateTokens } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { NEXT_PAGE_ARG } from './common-args.js';
import { historyOf, isoDay } from './history-format.js';
import { changedNote, cursorAfter, cursorPlaceholder, nextPageLine, pageQuestion, pageStart } from './list-page.js';

export interface GetContributorReposArgs {
  readonly author?: string;
  readonly authors?: readonly string[];
  readonly limit?: number;
  readonly minCommits?: number;
  readonly after?: string;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_AUTHORS = 5;
/** Room kept for the closing note, besides the next-call line. */
const NOTE_RESERVE_TOKENS = 80;

const DESCRIPTION = `Lists the repositories where an author has commits on the default branch, most commits first, with the count and the date of the latest. Authors match name or email as a case-insensitive substring; several are ORed. Give authors or author.
Example: {"authors":["jane@example.com"]}`;

export const getContributorReposTool: ToolDefinition<GetContributorReposArgs> = {
  name: 'get_contributor_repos',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    authors: { type: 'array', items: { type: 'string' }, maxItems: MAX_AUTHORS, description: 'Author names or emails.' },
    author: { type: 'string', description: 'One author (as authors).' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Repositories to return (default ${DEFAULT_LIMIT}).` },
    minCommits: { type: 'integer', minimum: 1, description: 'Least commits by the authors (default 1).' },
    after: NEXT_PAGE_ARG,
  }, []),
  async run(args, ctx) {
    const history = historyOf(ctx);
    const authors = [...(args.authors ?? []), ...(args.author !== undefined ? [args.author] : [])].map((a) => a.trim()).filter((a) => a !== '');
    if (authors.length === 0) throw new ToolError('Pass the author to look for in authors (or author).');
    if (authors.length > MAX_AUTHORS) throw new ToolError(`Pass at most ${MAX_AUTHORS} authors.`);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const repos = await history.contributorRepos(authors, args.minCommits ?? 1, ctx.principal.canRead);
    const who = authors.map((a) => JSON.stringify(a)).join(' or ');
    const question = pageQuestion('get_contributor_repos', `${who} with at least ${plural(args.minCommits ?? 1, 'commit')}`);
    // Counts and dates belong in the keys: a repository that gained commits may have moved in the order.
    const keys = repos.map((r) => `${r.repository} ${r.commitCount} ${r.latestDate}`);
    const { start, changed } = pageStart(args.after, question, 'get_contributor_repos', keys);
    if (repos.length === 0) return { text: `No repositories have commits by ${who}.\n` };
    const nextCallWith = (after: string): string => nextPageLine('get_contributor_repos', { ...args, after });
    const builder = new AnswerBuilder(ctx.maxAnswerTokens, NOTE_RESERVE_TOKENS + estimateTokens(nextCallWith(cursorPlaceholder(question, repos.length))));
    const wanted = Math.min(repos.length, start + limit);
    let end = start;
    while (end < wanted && builder.add(`${repos[end]!.repository} - ${plural(repos[end]!.commitCount, 'commit')}, latest ${isoDay(repos[end]!.latestDate)}\n`)) end++;
    const notes: string[] = [];
    const total = plural(repos.length, 'repository', 'repositories');
    if (start >= repos.length) notes.push(`No more repositories after that cursor: ${total} have commits by ${who}.`);
    else if (start > 0 || end < repos.length) notes.push(`Showing ${end === start ? 'none' : `${start + 1}-${end}`} of ${total} with commits by ${who}${end < wanted ? ` (the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent)` : ''}.`);
    if (changed) notes.push(changedNote('repositories or their commit counts'));
    if (end < repos.length && end > start) notes.push(nextCallWith(cursorAfter(question, keys, end - 1)));
    return { text: builder.finish(notes.join('\n')) };
  },
};
