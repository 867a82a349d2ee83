/**
 * The `list_files` tool: a directory's direct children at a revision, directories first, as full
 * repository paths one per line, a page of at most 1000 entries within the answer budget, then a cursor.
 */
import { AnswerBuilder, estimateTokens } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { plural, treeUrl } from '../format.js';
import { ToolError, type ToolContext, type ToolDefinition } from '../tool.js';
import { NEXT_PAGE_ARG, REPO_ARG, REVISION_ARG } from './common-args.js';
import { closestPathsHint } from './closest-names.js';
import type { TreeItem } from '../../../model/repos.js';
import { checkedPath, parentOf } from './file-path.js';
import { changedNote, cursorAfter, cursorPlaceholder, nextPageLine, pageQuestion, pageStart } from './list-page.js';
import { describeAt, resolveRepoAtCommit, type RepoAtCommit } from './revision.js';

export interface ListFilesArgs {
  readonly repo: string;
  readonly path?: string;
  readonly revision?: string;
  readonly after?: string;
}

export const MAX_ENTRIES = 1000;
/** Room kept for the closing note, besides the next-call line. */
const NOTE_RESERVE_TOKENS = 60;

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
    after: NEXT_PAGE_ARG,
  }, ['repo']),
  async run(args, ctx) {
    const path = checkedPath(args.path ?? '');
    const at = await resolveRepoAtCommit(ctx, args.repo, args.revision);
    const items = await ctx.services.repos.listTree(at.repo, at.commit, path, false);
    if (items === null) throw await notADirectory(ctx, at, path);
    const entries = sortedEntries(items);
    // Bound to the commit, and the next call names it: later pages list the same tree even if the branch moves.
    const question = pageQuestion('list_files', `${at.repo}@${at.commit}:${path}`);
    const { start, changed } = pageStart(args.after, question, 'list_files', entries);
    const nextCallWith = (after: string): string => nextPageLine('list_files', { repo: at.repo, ...(path === '' ? {} : { path }), revision: at.commit, after });
    const builder = new AnswerBuilder(ctx.maxAnswerTokens, NOTE_RESERVE_TOKENS + estimateTokens(nextCallWith(cursorPlaceholder(question, entries.length))));
    if (!builder.add(`URL: ${treeUrl(ctx.origin, at.repo, at.commit, path)}\n`)) {
      return { text: builder.finish(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is too small to list ${path === '' ? 'the root' : path})`) };
    }
    const wanted = Math.min(entries.length, start + MAX_ENTRIES);
    let end = start;
    while (end < wanted && builder.add(`${entries[end]}\n`)) end++;
    const notes = [notice(ctx, entries.length, start, end, wanted), changed ? changedNote('directory listing') : null];
    if (end < entries.length && end > start) notes.push(nextCallWith(cursorAfter(question, entries, end - 1)));
    return { text: builder.finish(notes.filter((n) => n !== null).join('\n')) };
  },
};

function notice(ctx: ToolContext, total: number, start: number, end: number, wanted: number): string | null {
  if (total === 0) return '(the directory is empty)';
  if (start >= total) return `(no more entries after that cursor: ${plural(total, 'entry', 'entries')} in all)`;
  if (start === 0 && end === total) return null;
  const spent = `the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent`;
  if (end === start) return `(${spent} before entry ${(start + 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')})`;
  const shown = `entries ${(start + 1).toLocaleString('en-US')}-${end.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} shown`;
  if (end === total) return `(... ${shown})`;
  return `(... ${shown}: ${end < wanted ? spent : `list_files shows at most ${MAX_ENTRIES} at a time`})`;
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
