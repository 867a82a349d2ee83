/**
 * source.read and source.list for evaluator scripts: read_file's and list_files's repository
 * browser at a revision (the default branch unless one is given), with the caller's permissions:
 * a repository it may not read is answered as missing. Text comes back as the file's bytes.
 */
import { languageOfPath } from '../../../query/languages.js';
import { splitLines } from '../format.js';
import { ToolError, type ToolContext } from '../tool.js';
import { closestPathsHint } from './closest-names.js';
import type { ScriptArgs } from './evaluator-args.js';
import type { Rows } from './evaluator-search.js';
import { checkedPath } from './file-path.js';
import { describeAt, resolveRepoAtCommit } from './revision.js';

/** The most a whole-file read hands a script; a line range of a larger file is fine. */
const MAX_READ_BYTES = 8 * 1024 * 1024;
const MAX_LINE = 10_000_000;

export interface EntryRow {
  readonly path: string;
  readonly dir: boolean;
  readonly language?: string;
}

export async function readSource(ctx: ToolContext, args: ScriptArgs): Promise<Uint8Array> {
  const repo = args.string(1, 'the repository');
  const path = checkedPath(args.string(2, 'the file path'));
  const opts = args.options(3, ['revision', 'startLine', 'endLine']);
  const startLine = opts.integer('startLine', 1, MAX_LINE);
  const endLine = opts.integer('endLine', 1, MAX_LINE);
  const at = await resolveRepoAtCommit(ctx, repo, opts.string('revision'));
  const blob = await ctx.services.repos.readBlob(at.repo, at.commit, path);
  if (blob === null) {
    if ((await ctx.services.repos.listTree(at.repo, at.commit, path, false)) !== null) throw new ToolError(`${path} is a directory in ${describeAt(at)}, not a file; use source.list`);
    throw new ToolError(`file not found: ${path} (${describeAt(at)}).${await closestPathsHint(ctx, at.repo, at.commit, path, false)}`);
  }
  if (startLine === undefined && endLine === undefined) {
    if (blob.length > MAX_READ_BYTES) throw new ToolError(`${path} is ${blob.length} bytes, over the ${MAX_READ_BYTES} a whole read may return; read a line range with startLine and endLine`);
    return blob;
  }
  const lines = splitLines(blob.toString('utf8'));
  const selected = lines.slice((startLine ?? 1) - 1, endLine ?? lines.length);
  const text = selected.length === 0 ? '' : `${selected.join('\n')}\n`;
  if (text.length > MAX_READ_BYTES) throw new ToolError(`lines ${startLine ?? 1}-${endLine ?? lines.length} of ${path} are over the ${MAX_READ_BYTES} bytes a read may return; read fewer lines`);
  return Buffer.from(text, 'utf8');
}

export async function listSource(ctx: ToolContext, args: ScriptArgs): Promise<Rows<EntryRow>> {
  const repo = args.string(1, 'the repository');
  // source.list(repo, {recursive = true}) reads as the root with options.
  const optionsAt = args.isTable(2) ? 2 : 3;
  const path = checkedPath(optionsAt === 2 ? '' : args.optionalString(2, 'the directory') ?? '');
  const opts = args.options(optionsAt, ['revision', 'recursive']);
  const at = await resolveRepoAtCommit(ctx, repo, opts.string('revision'));
  const items = await ctx.services.repos.listTree(at.repo, at.commit, path, opts.boolean('recursive') ?? false);
  if (items === null) throw new ToolError(`directory not found: ${path} (${describeAt(at)}).${await closestPathsHint(ctx, at.repo, at.commit, path, true)}`);
  return items.map((item) => {
    const language = item.isDirectory ? null : languageOfPath(item.path);
    return { path: item.path, dir: item.isDirectory, ...(language === null ? {} : { language }) };
  });
}
