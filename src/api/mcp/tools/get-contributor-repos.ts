/**
 * The `get_contributor_repos` tool (reference §1.4): repositories the caller may read where an
 * author (name or e-mail, case-insensitive partial match) has default-branch commits, most first.
 */
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
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

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
Finds the repositories an author has contributed to, with the number of commits and the date of the most recent one.
Authors are matched by name or email with case-insensitive partial matching; several authors (max ${MAX_AUTHORS}) are matched with OR logic.
Counts commits on each repository's default branch. Repositories with the most commits come first.

Examples:
<examples>
\t<example>
\t\t<user>Which repositories has jane@example.com worked on?</user>
\t\t<response>Calls get_contributor_repos with authors: ["jane@example.com"]</response>
\t</example>
</examples>`;

export const getContributorReposTool: ToolDefinition<GetContributorReposArgs> = {
  name: 'get_contributor_repos',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    authors: { type: 'array', items: { type: 'string' }, maxItems: MAX_AUTHORS, description: `Author names or emails to look for (max ${MAX_AUTHORS}), matched with OR logic. Case-insensitive partial matching.` },
    author: { type: 'string', description: 'One author name or email (case-insensitive partial matching); same as authors with one value.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Maximum number of repositories to return. Defaults to ${DEFAULT_LIMIT}, max ${MAX_LIMIT}.` },
    minCommits: { type: 'integer', minimum: 1, description: 'Only repositories with at least this many commits by the author. Defaults to 1.' },
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
