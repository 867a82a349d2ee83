/**
 * The `list_repos` tool: repositories the caller may read whose name contains the query (no regex),
 * best matches first, one per line, paged by opaque cursors and kept within the answer budget.
 */
import type { RepoInfo } from '../../../model/repos.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface ListReposArgs {
  readonly query: string;
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 10_000;

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
Lists repositories that match a search query.
You can use this tool to figure out the repositories the user wants to talk about.
Returns one repository per line: its name, then " - " and its description when it has one. Exact name matches come first, then repositories whose last path segment contains the query, then the rest.
By default, returns up to ${DEFAULT_LIMIT} repositories per page.
Supports cursor-based pagination - when more results exist, the response ends with the total count and a cursor for the next page (and, past the first page, one for the previous page).
Use the "after" parameter with the cursor given for the next page, or "before" with the cursor given for the previous page.

When to use this tool:
- When you do not know the full name of a repository (e.g. the user asks to search the xyz repo, you can use this tool to get github.com/my-org/xyz)
- When you have to find repositories by substring matching (e.g. you want to find all repositories that contain the word "foobar")
The pattern is not a regular expression, but uses substring matching on the name of the repo (case-insensitive).

Examples:
<examples>
	<example>
		<user>Find repositories in the cool-kids-club org on Github</user>
		<response>Calls the list repos tool with query: "github.com/cool-kids-club"</response>
	</example>
	<example>
		<user>Explain the foo repository</user>
		<response>Calls the list repos tool with query: "foo"</response>
	</example>
</examples>`;

export const listReposTool: ToolDefinition<ListReposArgs> = {
  name: 'list_repos',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'A search query to filter repositories. For example, "django" to find repositories containing that term.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Maximum number of repositories to return per page. Defaults to ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT}.` },
    after: { type: 'string', description: 'Cursor to start fetching results after. Use the cursor a previous response gave for the next page.' },
    before: { type: 'string', description: 'Cursor to start fetching results before. Use the cursor a previous response gave for the previous page.' },
  }, ['query']),
  async run(args, ctx) {
    if (args.after !== undefined && args.before !== undefined) throw new ToolError('Pass either after or before, not both.');
    const query = args.query.trim();
    const limit = args.limit ?? DEFAULT_LIMIT;
    const matches = rankRepos(ctx.services.repos.list(ctx.principal.canRead), query);
    if (matches.length === 0) return { text: `No repositories match "${query}".\n` };
    const total = matches.length;
    let start = 0;
    let end = Math.min(total, limit);
    if (args.after !== undefined) {
      start = Math.min(total, decodeCursor(args.after, query, 'after', 'list_repos') + 1);
      end = Math.min(total, start + limit);
    } else if (args.before !== undefined) {
      end = Math.min(total, decodeCursor(args.before, query, 'before', 'list_repos'));
      start = Math.max(0, end - limit);
    }
    if (start >= end) return { text: `No more repositories on that side of the cursor: ${plural(total, 'repository', 'repositories')} match "${query}" in all.\n` };

    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = start;
    while (shown < end && builder.add(`${repoLine(matches[shown]!)}\n`)) shown++;
    if (shown === start) return { text: builder.finish(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is too small to list a repository)`) };
    const notes: string[] = [];
    const spent = shown < end ? ` (the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent)` : '';
    if (start > 0 || shown < total) notes.push(`Showing ${start + 1}-${shown} of ${plural(total, 'repository', 'repositories')}${spent}.`);
    if (shown < total) {
      const how = spent === '' ? 'set a higher limit or pass' : 'pass';
      notes.push(`(more results available - ${how} after: "${encodeCursor(query, shown - 1)}" to see more)`);
    }
    if (start > 0) notes.push(`(earlier results: pass before: "${encodeCursor(query, start)}" to see the previous page)`);
    return { text: builder.finish(notes.join('\n')) };
  },
};

/** Matching repositories: exact name, then last path segment contains the query, then the rest; ties by name. */
export function rankRepos(repos: readonly RepoInfo[], query: string): RepoInfo[] {
  const needle = query.toLowerCase();
  const rank = (name: string): number => {
    if (name === needle) return 0;
    return name.slice(name.lastIndexOf('/') + 1).includes(needle) ? 1 : 2;
  };
  const ranked = repos
    .map((repo) => ({ repo, name: repo.name.toLowerCase() }))
    .filter((r) => r.name.includes(needle))
    .map((r) => ({ repo: r.repo, rank: rank(r.name) }));
  // list() is sorted by name and Array.prototype.sort is stable, so ties keep name order.
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.repo);
}

function repoLine(repo: RepoInfo): string {
  const description = repo.description.replace(/\s+/g, ' ').trim();
  return description === '' ? repo.name : `${repo.name} - ${description}`;
}
