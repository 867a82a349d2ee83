/**
 * The `list_refs` tool: a repository's branches and tags, so an agent can find the revision to pass
 * elsewhere instead of guessing one. The default branch first, then branches by name, then tags
 * newest version first; filtered by a substring, paged by an opaque cursor.
 */
import type { RefInfo } from '../../../model/repos.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { SOURCEGRAPH_PREFIX, type ToolDefinition } from '../tool.js';
import { resolveRepoName } from './closest-names.js';
import { REPO_ARG } from './nav-schema.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface ListRefsArgs {
  readonly repo: string;
  readonly query?: string;
  readonly limit?: number;
  readonly after?: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
List a repository's Git branches and tags.
Returns one ref per line: "branch" or "tag", its name and its commit (12 characters); the default branch first, then branches by name, then tags newest version first.
query keeps the refs whose name contains it (case-insensitive, not a regular expression). Up to ${DEFAULT_LIMIT} refs per page; when there are more, the answer ends with the cursor to pass as "after".
Use it to find the branch, tag or release to pass as revision to read_file, list_files, keyword_search (repo:name@rev), compare_revisions and the navigation tools.

Example: the tags of a release line: repo "github.com/gorilla/mux", query "v1.8".`;

export const listRefsTool: ToolDefinition<ListRefsArgs> = {
  name: 'list_refs',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    query: { type: 'string', description: 'Optional: keep the refs whose name contains this text, e.g. "release" or "v2.".' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Maximum number of refs per page. Defaults to ${DEFAULT_LIMIT}.` },
    after: { type: 'string', description: 'The cursor a previous list_refs answer gave, to see the refs after the ones it showed.' },
  }, ['repo']),
  async run(args, ctx) {
    const repo = resolveRepoName(ctx, args.repo);
    const query = args.query?.trim() ?? '';
    const question = `${repo} refs matching "${query}"`;
    const start = args.after === undefined ? 0 : decodeCursor(args.after, question, 'after', 'list_refs') + 1;
    const info = ctx.services.repos.get(repo, ctx.principal.canRead)!;
    const refs = orderRefs((await ctx.services.repos.refs(repo)).filter((r) => r.name.toLowerCase().includes(query.toLowerCase())), info.defaultBranch ?? '');
    if (refs.length === 0) {
      return { text: query === '' ? `${repo} has no branches or tags.\n` : `No branch or tag of ${repo} contains "${query}". Call list_refs without query to see them all.\n` };
    }
    const limit = args.limit ?? DEFAULT_LIMIT;
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    let shown = 0;
    for (const ref of refs.slice(start, start + limit)) {
      if (!builder.add(`${ref.kind} ${ref.name} ${ref.oid.slice(0, 12)}\n`)) break;
      shown++;
    }
    const notes = [shown === 0 ? `None shown from ${start + 1} of ${refs.length} refs.` : `Showing ${start + 1}-${start + shown} of ${refs.length} refs.`];
    if (start + shown < refs.length && shown > 0) notes.push(`(more available - call list_refs with after: "${encodeCursor(question, start + shown - 1)}" to see the next ones)`);
    return { text: builder.finish(notes.join('\n')) };
  },
};

/** The default branch, other branches by name, then tags with the highest version first. */
function orderRefs(refs: readonly RefInfo[], defaultBranch: string): RefInfo[] {
  const rank = (r: RefInfo): number => (r.kind === 'branch' ? (r.name === defaultBranch ? 0 : 1) : 2);
  return [...refs].sort((a, b) => rank(a) - rank(b) || (a.kind === 'tag' ? VERSIONS.compare(b.name, a.name) : VERSIONS.compare(a.name, b.name)));
}

/** Names compared with their numbers as numbers: v1.10.0 after v1.9.2. */
const VERSIONS = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
