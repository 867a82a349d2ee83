/**
 * The `compare_revisions` tool: what `head` changes over its merge base with `base` (as
 * Sourcegraph's repository comparison), optionally only files matching path globs: the totals,
 * every changed file of the page with its line counts, then hunks while the answer budget lasts,
 * source files before tests, docs, CI, lock and generated files. Whatever is left out is named,
 * with the exact call that shows it (a cursor for further files, `paths` for hunks not shown).
 */
import { totalsOf, type Comparison } from '../../../history/compare.js';
import { displayPath, type FileDiff } from '../../../history/diff-model.js';
import { compilePathGlobs, exactPathGlob } from '../../../history/path-glob.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { fileHeader, plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { changeKind, inChangeOrder, KIND_LABEL } from './change-order.js';
import { NEXT_PAGE_ARG, REPO_ARG } from './common-args.js';
import { diffService, hunkBody, hunkHeader } from './diff-repos.js';
import { resolveRepoName } from './closest-names.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export interface CompareRevisionsArgs {
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  readonly first?: number;
  readonly after?: string;
  readonly paths?: readonly string[];
}

export const DEFAULT_FIRST = 50;
export const MAX_FIRST = 100;
/** Room kept for the closing notes, which may name several files and a call to make (a quarter of small budgets). */
const NOTES_RESERVE_TOKENS = 600;
/** Files whose hunks were left out named at most, and named in a suggested `paths` argument at most. */
const NAMED_FILES = 12;
const SUGGESTED_PATHS = 5;

const DESCRIPTION = `Shows what head changes since its merge base with base (git diff base...head): the totals and every changed file with +/- counts (source first, CI and lock files last), then each file's hunks under "# repo – path" while the budget lasts.
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
    paths: { type: 'array', items: { type: 'string' }, maxItems: 50, description: 'Globs of the files to compare, e.g. ["src/**", "*.go"].' },
  }, ['repo', 'base', 'head']),
  async run(args, ctx) {
    const diffs = diffService(ctx);
    const repo = resolveRepoName(ctx, args.repo);
    const base = args.base.trim();
    const head = args.head.trim();
    if (base === '' || head === '') throw new ToolError('base and head must both name a revision (a branch, tag or commit).');
    const globs = args.paths ?? [];
    const wanted = globs.length === 0 ? null : compilePathGlobs(globs);
    const question = JSON.stringify([repo, base, head, globs]);
    const start = args.after === undefined ? 0 : decodeCursor(args.after, question, 'after', 'compare_revisions');
    const comparison = await diffs.compare(repo, base, head);
    const files = inChangeOrder(comparison.files.filter((f) => wanted === null || [f.oldPath, f.newPath].some((p) => p !== null && wanted(p))), displayPath);

    const builder = new AnswerBuilder(ctx.maxAnswerTokens, Math.min(NOTES_RESERVE_TOKENS, Math.floor(ctx.maxAnswerTokens / 4)));
    builder.add(summary(repo, args, comparison, files, globs));
    if (comparison.files.length === 0) return { text: builder.finish(null) };
    if (files.length === 0) return { text: builder.finish(noneMatch(comparison, globs)) };
    if (start >= files.length) return { text: builder.finish(`(No more files: ${plural(files.length, 'file')} in all.)`) };

    const page = files.slice(start, start + (args.first ?? DEFAULT_FIRST));
    const listed = addFileList(builder, page);
    const omitted: FileDiff[] = [];
    let sectionsShown = 0;
    for (const file of page.slice(0, listed)) {
      if (file.binary || file.hunks.length === 0) continue;
      if (builder.add(`\n${fileSection(repo, file)}`)) sectionsShown++;
      else omitted.push(file);
    }
    const notes: string[] = [];
    // One file larger than the whole budget: its first hunks, since no call could show more of it.
    if (sectionsShown === 0 && omitted.length > 0 && addCut(builder, repo, omitted[0]!)) notes.push(`(The hunks of ${displayPath(omitted.shift()!)} are cut short: they do not fit the answer budget.)`);
    if (omitted.length > 0) notes.push(omittedNote(repo, base, head, omitted, ctx.maxAnswerTokens));
    const next = start + listed;
    if (start > 0 || next < files.length) {
      const range = listed === 0 ? 'No file fits the answer budget' : `Showing files ${start + 1}-${next} of ${files.length}`;
      const more = next < files.length ? `; for the next files call compare_revisions with after: "${encodeCursor(question, next)}"` : '';
      notes.push(`(${range}${more}.)`);
    }
    return { text: builder.finish(notes.length === 0 ? null : notes.join('\n')) };
  },
};

function summary(repo: string, args: CompareRevisionsArgs, c: Comparison, files: readonly FileDiff[], globs: readonly string[]): string {
  const from = c.from === c.base ? '' : `, from their merge base ${c.from.slice(0, 12)}`;
  const head = `Comparing ${repo}: ${args.base} (${c.base.slice(0, 12)}) ... ${args.head} (${c.head.slice(0, 12)})${from}\n`;
  if (c.files.length === 0) return `${head}No changes.\n`;
  if (files.length === 0) return head;
  const t = totalsOf(files);
  const which = globs.length === 0 ? '' : ` matching paths ${JSON.stringify(globs)}`;
  const all = globs.length === 0 ? '' : ` (${plural(c.files.length, 'file')} changed in all)`;
  return `${head}${plural(files.length, 'file')}${which} changed (${t.filesAdded} added, ${t.filesModified} modified, ${t.filesDeleted} deleted), ` +
    `${plural(t.linesAdded, 'line')} added, ${plural(t.linesDeleted, 'line')} deleted${all}.\n`;
}

function noneMatch(c: Comparison, globs: readonly string[]): string {
  const some = c.files.slice(0, 5).map(displayPath).join(', ');
  return `No changed file matches paths ${JSON.stringify(globs)}; ${plural(c.files.length, 'file')} changed in all (${some}${c.files.length > 5 ? ', …' : ''}): call without paths to list them.`;
}

/** The page's files, one line each, as many as fit; how many were listed. */
function addFileList(builder: AnswerBuilder, page: readonly FileDiff[]): number {
  let text = '\nChanged files, source first (CI, lock and generated files last):\n';
  let listed = 0;
  for (const file of page) {
    const line = listLine(file);
    if (text.length + line.length > builder.remainingChars) break;
    text += line;
    listed++;
  }
  if (listed > 0) builder.add(text);
  return listed;
}

const STATUS_LETTER: Readonly<Record<FileDiff['status'], string>> = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C' };

/** `M +12 -3 src/app.go`, the old path of a rename or copy, and why a low-priority file comes last. */
function listLine(file: FileDiff): string {
  const path = displayPath(file);
  const counts = file.binary ? 'binary' : `+${file.added} -${file.deleted}`;
  const moved = file.status === 'renamed' || file.status === 'copied' ? ` (from ${file.oldPath})` : '';
  const label = KIND_LABEL[changeKind(path)];
  return `${STATUS_LETTER[file.status]} ${counts} ${path}${moved}${label === undefined ? '' : ` [${label}]`}\n`;
}

function fileSection(repo: string, file: FileDiff): string {
  const path = displayPath(file);
  const status = file.status === 'renamed' || file.status === 'copied' ? `${file.status} from ${file.oldPath}` : file.status;
  let text = `${fileHeader(repo, path)} (${status}, +${file.added} -${file.deleted})\n`;
  for (const hunk of file.hunks) text += `${hunkHeader(hunk)}\n${hunkBody(hunk)}`;
  return text;
}

const CUT_NOTE = '(cut here: the answer budget is spent)\n';

/** The file's section up to the last whole line that fits. */
function addCut(builder: AnswerBuilder, repo: string, file: FileDiff): boolean {
  const section = `\n${fileSection(repo, file)}`;
  const end = section.lastIndexOf('\n', builder.remainingChars - CUT_NOTE.length);
  return end > section.indexOf('\n', 1) && builder.add(`${section.slice(0, end + 1)}${CUT_NOTE}`);
}

/** Which files' hunks were left out, and the call that shows (the first of) them. */
function omittedNote(repo: string, base: string, head: string, omitted: readonly FileDiff[], budget: number): string {
  const names = omitted.map(displayPath);
  const asked = names.slice(0, SUGGESTED_PATHS).map(exactPathGlob);
  const rest = names.length > asked.length ? ` (then the other ${names.length - asked.length} the same way)` : '';
  const named = `${names.slice(0, NAMED_FILES).join(', ')}${names.length > NAMED_FILES ? ` and ${names.length - NAMED_FILES} more` : ''}`;
  return `(Hunks not shown for ${plural(names.length, 'file')}, the answer budget of ${plural(budget, 'token')} being spent: ${named}. ` +
    `To see them, call compare_revisions with repo: "${repo}", base: "${base}", head: "${head}", paths: ${JSON.stringify(asked)}${rest}.)`;
}
