/**
 * The `read_file` tool: a file's numbered lines at a revision, within the answer budget, in
 * Sourcegraph's June 2026 text format. Reads through the repository browser, never git directly.
 */
import { isBinary } from '../../../model/binary.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { blobUrl, plural, splitLines } from '../format.js';
import { ToolError, type ToolContext, type ToolDefinition } from '../tool.js';
import { REPO_ARG, REVISION_ARG } from './common-args.js';
import { closestPathsHint } from './closest-names.js';
import { addNumberedLines } from './file-lines.js';
import { checkedPath } from './file-path.js';
import { describeAt, resolveRepoAtCommit, type RepoAtCommit } from './revision.js';

export interface ReadFileArgs {
  readonly repo: string;
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly revision?: string;
}

/** Sourcegraph's whole-file limit; larger files show their first lines unless a range is asked. */
export const WHOLE_FILE_LIMIT_BYTES = 128 * 1024;
export const LINES_OVER_LIMIT = 200;

const DESCRIPTION = `Reads a file at a revision. The answer is "URL: <link>", then each line as "N: text" (1-based numbers).
A file over ${WHOLE_FILE_LIMIT_BYTES / 1024} KB gives its first ${LINES_OVER_LIMIT} lines and its line count: then read a range; a range over the answer budget ends with the startLine to continue from. Binary files give only their size.
Take paths from list_files or a search; never guess them.
Example: {"repo":"github.com/gorilla/mux","path":"mux.go","startLine":1,"endLine":80}`;

export const readFileTool: ToolDefinition<ReadFileArgs> = {
  name: 'read_file',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    path: { type: 'string', description: 'File path from the repository root.' },
    startLine: { type: 'integer', minimum: 1, description: 'First line to read (default 1).' },
    endLine: { type: 'integer', minimum: 1, description: 'Last line to read, included (default: the last).' },
    revision: REVISION_ARG,
  }, ['repo', 'path']),
  async run(args, ctx) {
    const { startLine, endLine } = args;
    if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
      throw new ToolError(`endLine (${endLine}) is before startLine (${startLine}): give a range with endLine >= startLine.`);
    }
    const path = checkedPath(args.path);
    const at = await resolveRepoAtCommit(ctx, args.repo, args.revision);
    const blob = path === '' ? null : await ctx.services.repos.readBlob(at.repo, at.commit, path);
    if (blob === null) throw await notAFile(ctx, at, path);
    if (blob.length === 0) return { text: `URL: ${blobUrl(ctx.origin, at.repo, at.commit, path)}\n(the file is empty)\n` };
    if (isBinary(blob)) {
      return { text: `URL: ${blobUrl(ctx.origin, at.repo, at.commit, path)}\n(binary file, ${plural(blob.length, 'byte')}: its content is not shown)\n` };
    }
    const lines = splitLines(blob.toString('utf8'));
    const total = lines.length;
    const start = startLine ?? 1;
    if (start > total) throw new ToolError(`startLine ${start} is past the end of ${path}: the file has ${plural(total, 'line')}.`);
    const end = Math.min(endLine ?? total, total);
    const ranged = startLine !== undefined || endLine !== undefined;
    const last = !ranged && blob.length > WHOLE_FILE_LIMIT_BYTES ? Math.min(end, LINES_OVER_LIMIT) : end;

    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    if (!builder.add(`URL: ${blobUrl(ctx.origin, at.repo, at.commit, path, ranged ? { start, end } : undefined)}\n`)) {
      return { text: builder.finish(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is too small to show ${path})`) };
    }
    const next = addNumberedLines(builder, lines, start, last, builder.remainingChars);
    if (next <= last) return { text: builder.finish(budgetNotice(ctx, start, next, total, endLine === undefined ? null : end)) };
    if (last < end) {
      const notice = `(${path} is ${plural(blob.length, 'byte')}, over the 128 KB limit for reading a whole file: showing lines 1-${last} of ${total}; ` +
        `call read_file with startLine and endLine to read more, e.g. startLine: ${last + 1}, endLine: ${Math.min(total, last + LINES_OVER_LIMIT)})`;
      return { text: builder.finish(notice) };
    }
    // Sourcegraph numbers the empty string after a file's final newline as one more line (its answers
    // split newline-terminated text on "\n"); agents are used to that ending, so a read that reaches
    // the end of the file keeps it. A range that stops earlier does not: that line is not empty.
    if (end === total && blob[blob.length - 1] === 0x0a) builder.add(`${total + 1}: \n`);
    return { text: builder.finish(null) };
  },
};

function budgetNotice(ctx: ToolContext, start: number, next: number, total: number, end: number | null): string {
  const resume = `call read_file with startLine: ${next}${end === null ? '' : `, endLine: ${end}`} to continue`;
  const spent = `the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent`;
  if (next === start) return `(line ${start} of ${total} is not shown: the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is too small for it)`;
  return `(showing lines ${start}-${next - 1} of ${total}: ${spent}; ${resume})`;
}

async function notAFile(ctx: ToolContext, at: RepoAtCommit, path: string): Promise<ToolError> {
  if ((await ctx.services.repos.listTree(at.repo, at.commit, path, false)) !== null) {
    return new ToolError(`${path === '' ? 'The repository root' : path} is a directory in ${describeAt(at)}, not a file. Use list_files to see its entries.`);
  }
  const hint = await closestPathsHint(ctx, at.repo, at.commit, path, false);
  return new ToolError(`File not found: ${path} (${describeAt(at)}).${hint} Use list_files to see the directory.`);
}
