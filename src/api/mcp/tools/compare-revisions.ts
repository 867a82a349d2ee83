/**
 * The `compare_revisions` tool: what `head` changes over its merge base with `base` (as
 * Sourcegraph's repository comparison), with line and file totals, each file's hunks, and cursor
 * paging over files; a page stops early, with a cursor, where the answer budget is spent.
 */
import { pageFiles, type Comparison } from '../../../history/compare.js';
import type { FileDiff } from '../../../history/diff-model.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { fileHeader, plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { NEXT_PAGE_ARG, REPO_ARG } from './common-args.js';
import { diffService, hunkBody, hunkHeader } from './diff-repos.js';
import { resolveRepoName } from './closest-names.js';

export interface CompareRevisionsArgs {
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  readonly first?: number;
  readonly after?: string;
}

export const DEFAULT_FIRST = 50;
export const MAX_FIRST = 100;

const DESCRIPTION = `Shows what head changes since its merge base with base (git diff base...head): the totals, then per file "# repo – path", its status and +/- line counts, then its hunks as a unified diff.
Example: {"repo":"github.com/acme/app","base":"v1.2.0","head":"main"}`;

export const compareRevisionsTool: ToolDefinition<CompareRevisionsArgs> = {
  name: 'compare_revisions',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    base: { type: 'string', description: 'Older revision: branch, tag, commit or e.g. main~5.' },
    head: { type: 'string', description: 'Newer revision, in the same forms.' },
    first: { type: 'integer', minimum: 1, maximum: MAX_FIRST, description: `Files per page (default ${DEFAULT_FIRST}).` },
    after: NEXT_PAGE_ARG,
  }, ['repo', 'base', 'head']),
  async run(args, ctx) {
    const diffs = diffService(ctx);
    const repo = resolveRepoName(ctx, args.repo);
    if (args.base.trim() === '' || args.head.trim() === '') throw new ToolError('base and head must both name a revision (a branch, tag or commit).');
    const comparison = await diffs.compare(repo, args.base.trim(), args.head.trim());
    const page = pageFiles(comparison.files, args.first ?? DEFAULT_FIRST, args.after);
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    builder.add(summary(repo, args, comparison));
    if (comparison.files.length === 0) return { text: builder.finish(null) };
    let shown = 0;
    for (const file of page.files) {
      if (!builder.add(fileSection(repo, file)) && !builder.add(fileSection(repo, file, false))) break;
      shown++;
    }
    const next = page.start + shown;
    const total = comparison.files.length;
    const range = shown === 0 ? 'No file fits the answer budget' : `Showing files ${page.start + 1}-${next} of ${total}`;
    const more = next < total ? `; for the next files call compare_revisions with after: "${next}"` : '';
    const spent = shown < page.files.length ? ` (the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent)` : '';
    return { text: builder.finish(page.start > 0 || next < total ? `(${range}${spent}${more}.)` : null, '\n') };
  },
};

function summary(repo: string, args: CompareRevisionsArgs, c: Comparison): string {
  const t = c.totals;
  const from = c.from === c.base ? '' : `, from their merge base ${c.from.slice(0, 12)}`;
  const head = `Comparing ${repo}: ${args.base} (${c.base.slice(0, 12)}) ... ${args.head} (${c.head.slice(0, 12)})${from}\n`;
  if (c.files.length === 0) return `${head}No changes.\n`;
  return `${head}${plural(c.files.length, 'file')} changed (${t.filesAdded} added, ${t.filesModified} modified, ${t.filesDeleted} deleted), ` +
    `${plural(t.linesAdded, 'line')} added, ${plural(t.linesDeleted, 'line')} deleted.\n`;
}

/** With withHunks false, only the header: a file whose diff does not fit still shows what changed. */
function fileSection(repo: string, file: FileDiff, withHunks = true): string {
  const path = file.newPath ?? file.oldPath ?? '';
  const status = file.status === 'renamed' || file.status === 'copied' ? `${file.status} from ${file.oldPath}` : file.status;
  const stats = file.binary ? 'binary' : `+${file.added} -${file.deleted}`;
  let text = `${fileHeader(repo, path)} (${status}, ${stats})\n`;
  if (file.binary) return `${text}(binary file: no text diff)\n`;
  if (!withHunks) return file.hunks.length === 0 ? text : `${text}(hunks not shown: the answer budget is spent)\n`;
  for (const hunk of file.hunks) text += `${hunkHeader(hunk)}\n${hunkBody(hunk)}`;
  return text;
}
