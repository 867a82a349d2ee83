/**
 * The `list_repos` tool: repositories the caller may read whose name contains the query (no regex),
 * best matches first, one per line, paged by opaque cursors and kept within the answer budget.
 */
import type { RepoInfo } from '../../../model/repos.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { NEXT_PAGE_ARG } from './common-args.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface ListReposArgs {
  readonly query: string;
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 10_000;

const DESCRIPTION = `Finds repositories whose name contains query (case-insensitive, not a regex), exact names first. One per line: name - description.
Example: {"query":"mux"}`;

export const listReposTool: ToolDefinition<ListReposArgs> = {
  name: 'list_repos',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'Text the names must contain, e.g. django.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Repositories per page (default ${DEFAULT_LIMIT}).` },
    after: NEXT_PAGE_ARG,
    before: { type: 'string', description: 'Cursor for the previous page.' },
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
