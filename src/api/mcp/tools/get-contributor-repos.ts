/**
 * The `get_contributor_repos` tool (reference §1.4): repositories the caller may read where an
 * author (name or e-mail, case-insensitive partial match) has default-branch commits, most first.
 */
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { historyOf, isoDay } from './history-format.js';

export interface GetContributorReposArgs {
  readonly author?: string;
  readonly authors?: readonly string[];
  readonly limit?: number;
  readonly minCommits?: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_AUTHORS = 5;

const DESCRIPTION = `Lists the repositories where an author has commits on the default branch, most commits first, with the count and the date of the latest. Authors match name or email as a case-insensitive substring; several are ORed. Give authors or author.
Example: {"authors":["jane@example.com"]}`;

export const getContributorReposTool: ToolDefinition<GetContributorReposArgs> = {
  name: 'get_contributor_repos',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    authors: { type: 'array', items: { type: 'string' }, maxItems: MAX_AUTHORS, description: 'Author names or emails.' },
    author: { type: 'string', description: 'One author; same as authors with one value.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Repositories to return (default ${DEFAULT_LIMIT}).` },
    minCommits: { type: 'integer', minimum: 1, description: 'Least commits by the authors (default 1).' },
  }, []),
  async run(args, ctx) {
    const history = historyOf(ctx);
    const authors = [...(args.authors ?? []), ...(args.author !== undefined ? [args.author] : [])].map((a) => a.trim()).filter((a) => a !== '');
    if (authors.length === 0) throw new ToolError('Pass the author to look for in authors (or author).');
    if (authors.length > MAX_AUTHORS) throw new ToolError(`Pass at most ${MAX_AUTHORS} authors.`);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const repos = await history.contributorRepos(authors, args.minCommits ?? 1, ctx.principal.canRead);
    const who = authors.map((a) => JSON.stringify(a)).join(' or ');
    if (repos.length === 0) return { text: `No repositories have commits by ${who}.\n` };
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = 0;
    while (shown < Math.min(limit, repos.length) && builder.add(`${repos[shown]!.repository} - ${plural(repos[shown]!.commitCount, 'commit')}, latest ${isoDay(repos[shown]!.latestDate)}\n`)) shown++;
    const note = shown < repos.length ? `Showing ${shown} of ${plural(repos.length, 'repository', 'repositories')} with commits by ${who}${shown < limit ? ' (the answer budget is spent)' : '; raise limit to see more'}.` : null;
    return { text: builder.finish(note) };
  },
};
