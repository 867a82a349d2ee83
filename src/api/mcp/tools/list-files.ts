/**
 * The `list_files` tool: a directory's direct children at a revision, directories first, as full
 * repository paths one per line, within the 1000-entry cap and the answer budget.
 */
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural, treeUrl } from '../format.js';
import { ToolError, type ToolContext, type ToolDefinition } from '../tool.js';
import { REPO_ARG, REVISION_ARG } from './common-args.js';
import { closestPathsHint } from './closest-names.js';
import type { TreeItem } from '../../../model/repos.js';
import { checkedPath, parentOf } from './file-path.js';
import { describeAt, resolveRepoAtCommit, type RepoAtCommit } from './revision.js';

export interface ListFilesArgs {
  readonly repo: string;
  readonly path?: string;
  readonly revision?: string;
}

export const MAX_ENTRIES = 1000;

const DESCRIPTION = `Lists the files and subdirectories of one directory at a revision: "URL: <link>", then one path per line from the repository root, directories first with a trailing /, each group by name.
Up to ${MAX_ENTRIES} entries; a closing note says how many were left out.
Example: {"repo":"github.com/pallets/flask","path":"src/flask"}`;

export const listFilesTool: ToolDefinition<ListFilesArgs> = {
  name: 'list_files',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    path: { type: 'string', description: 'Directory from the repository root (default: the root).' },
    revision: REVISION_ARG,
  }, ['repo']),
  async run(args, ctx) {
    const path = checkedPath(args.path ?? '');
    const at = await resolveRepoAtCommit(ctx, args.repo, args.revision);
    const items = await ctx.services.repos.listTree(at.repo, at.commit, path, false);
    if (items === null) throw await notADirectory(ctx, at, path);
    const entries = sortedEntries(items);
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    if (!builder.add(`URL: ${treeUrl(ctx.origin, at.repo, at.commit, path)}\n`)) {
      return { text: builder.finish(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is too small to list ${path === '' ? 'the root' : path})`) };
    }
    const wanted = Math.min(entries.length, MAX_ENTRIES);
    let shown = 0;
    while (shown < wanted && builder.add(`${entries[shown]}\n`)) shown++;
    return { text: builder.finish(notice(ctx, entries.length, shown, wanted)) };
  },
};

function notice(ctx: ToolContext, total: number, shown: number, wanted: number): string | null {
  if (total === 0) return '(the directory is empty)';
  if (shown === total) return null;
  const missing = `${plural(total - shown, 'entry', 'entries')} missing`;
  const where = 'list a subdirectory, or find files with keyword_search and a file: filter, to see the others';
  if (shown < wanted) {
    return `(... ${shown.toLocaleString('en-US')} of ${plural(total, 'entry', 'entries')} shown, ${missing}: the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent; ${where})`;
  }
  return `(... ${shown.toLocaleString('en-US')} of ${plural(total, 'entry', 'entries')} shown, ${missing}: list_files shows at most ${MAX_ENTRIES}; ${where})`;
}

/** Directories (with their trailing `/`) then files, each group in byte order of the UTF-8 path. */
function sortedEntries(items: readonly TreeItem[]): string[] {
  const byBytes = (paths: string[]): string[] =>
    paths.map((p) => ({ p, key: Buffer.from(p, 'utf8') })).sort((a, b) => Buffer.compare(a.key, b.key)).map((e) => e.p);
  return [
    ...byBytes(items.filter((i) => i.isDirectory).map((i) => `${i.path}/`)),
    ...byBytes(items.filter((i) => !i.isDirectory).map((i) => i.path)),
  ];
}

async function notADirectory(ctx: ToolContext, at: RepoAtCommit, path: string): Promise<ToolError> {
  const siblings = await ctx.services.repos.listTree(at.repo, at.commit, parentOf(path), false);
  if (siblings?.some((item) => item.path === path && !item.isDirectory)) {
    return new ToolError(`${path} is a file in ${describeAt(at)}, not a directory. Use read_file to read it.`);
  }
  const hint = await closestPathsHint(ctx, at.repo, at.commit, path, true);
  return new ToolError(`Directory not found: ${path} (${describeAt(at)}).${hint} Use list_files on a parent directory to see what exists.`);
}
