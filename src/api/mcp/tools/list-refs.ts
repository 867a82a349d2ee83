/**
 * The `list_refs` tool: a repository's branches and tags, so an agent can find the revision to pass
 * elsewhere instead of guessing one. The default branch first, then branches by name, then tags
 * newest version first; filtered by a substring, paged by an opaque cursor.
 */
import type { RefInfo } from '../../../model/repos.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { type ToolDefinition } from '../tool.js';
import { resolveRepoName } from './closest-names.js';
import { NEXT_PAGE_ARG, REPO_ARG } from './common-args.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface ListRefsArgs {
  readonly repo: string;
  readonly query?: string;
  readonly limit?: number;
  readonly after?: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

const DESCRIPTION = `Lists a repository's branches and tags, one per line (kind, name, commit): the default branch, other branches, then tags, releases newest first. These are the revisions the other tools take.
Example: {"repo":"github.com/gorilla/mux","query":"v1.8"}`;

export const listRefsTool: ToolDefinition<ListRefsArgs> = {
  name: 'list_refs',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    query: { type: 'string', description: 'Substring of the ref names (case-insensitive).' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Refs per page (default ${DEFAULT_LIMIT}).` },
    after: NEXT_PAGE_ARG,
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

/**
 * The default branch, other branches by name, then tags with the highest version first: the
 * repository's own releases (`v1.2.0`, `14.1.1`) before tags of its parts (`wincolor-1.0.1`, a
 * crate of a workspace), whose names would otherwise sort above every number.
 */
function orderRefs(refs: readonly RefInfo[], defaultBranch: string): RefInfo[] {
  const rank = (r: RefInfo): number => (r.kind === 'branch' ? (r.name === defaultBranch ? 0 : 1) : RELEASE.test(r.name) ? 2 : 3);
  return [...refs].sort((a, b) => rank(a) - rank(b) || (a.kind === 'tag' ? VERSIONS.compare(b.name, a.name) : VERSIONS.compare(a.name, b.name)));
}

/** A tag that is a version of the repository itself. */
const RELEASE = /^v?\d/i;

/** Names compared with their numbers as numbers: v1.10.0 after v1.9.2. */
const VERSIONS = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
