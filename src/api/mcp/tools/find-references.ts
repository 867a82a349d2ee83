/**
 * The `find_references` tool (reference §1.4): from a symbol's definition, the references that
 * resolve to it across the readable repositories, each with a line of context either side and the
 * symbol it sits in, most relevant first, paged by `limit` and `after` within the answer budget. The
 * total counts only resolved references; same-named uses matched by name only are counted
 * and listed apart.
 */
import { builtinOwner, findDefinition, parseSymbolName } from '../../../symbols/navigation/definition.js';
import type { NavFile } from '../../../symbols/navigation/model.js';
import { findReferences, type ReferenceSite } from '../../../symbols/navigation/references.js';
import type { Resolver } from '../../../symbols/navigation/resolve.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { fileHeader, numberLines, plural } from '../format.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { FileLines, notFoundAnswer, positionOf, startNavigation, type NavigationArgs } from './nav-origin.js';
import { NEXT_PAGE_ARG, REPO_ARG, REVISION_ARG } from './common-args.js';
import { COLUMN_ARG, LINE_ARG, NAV_PATH_ARG, SYMBOL_ARG } from './nav-schema.js';
import { enclosingSymbol } from './enclosing-symbol.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

export const DEFAULT_REFERENCE_LIMIT = 10;
export const MAX_REFERENCE_LIMIT = 1000;
const MAX_LINE_CHARS = 256;

export interface FindReferencesArgs extends NavigationArgs {
  readonly limit?: number;
  readonly after?: string;
}

const DESCRIPTION = `Finds the uses of the definition a symbol resolves to from a file, across repositories (not same-named symbols of other scopes, comments or strings): numbered lines under "# repo – path" with the symbol each is in. Uses matched by name only are counted apart and listed last.
Example: {"repo":"github.com/gorilla/mux","path":"mux.go","symbol":"Router"}`;

export const findReferencesTool: ToolDefinition<FindReferencesArgs> = {
  name: 'find_references',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    path: NAV_PATH_ARG,
    symbol: SYMBOL_ARG,
    revision: REVISION_ARG,
    limit: { type: 'integer', minimum: 1, maximum: MAX_REFERENCE_LIMIT, description: `References per page (default ${DEFAULT_REFERENCE_LIMIT}).` },
    line: LINE_ARG,
    column: COLUMN_ARG,
    after: NEXT_PAGE_ARG,
  }, ['repo', 'path', 'symbol']),
  async run(args, ctx) {
    const name = parseSymbolName(args.symbol);
    if (name === null) throw new ToolError('"symbol" is empty: pass the name of a function, type, variable or method.');
    const position = positionOf(args);
    const start = await startNavigation(ctx, args);
    const definition = findDefinition(start.resolver, start.origin, name, position);
    if (definition === null) {
      const outside = notFoundAnswer(args.symbol, name.name, start, builtinOwner(start.origin.symbols, name, position));
      if (outside instanceof ToolError) throw outside;
      return { text: `${outside}Its references outside the indexed repositories are not known; use keyword_search for its uses here.\n` };
    }
    const target = definition.best.site;
    const limit = args.limit ?? DEFAULT_REFERENCE_LIMIT;
    const where = `${fileHeader(target.file.repo, target.file.path).slice(2)}:${target.definition.nameRange.startLine + 1}`;
    const question = `${target.definition.name} at ${where}`;
    const offset = args.after === undefined ? 0 : decodeCursor(args.after, question, 'after', 'find_references') + 1;
    const { total, unresolved, sites } = findReferences(start.resolver, target, { offset, limit });
    const all = total + unresolved;
    if (all === 0) return { text: withNote(`No references to ${target.definition.name} (defined at ${where}) were found.\n`, start.revisionNote) };
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    const lines = new FileLines(ctx);
    let shown = 0;
    for (const group of groupByFile(sites)) {
      const text = await lines.get(group[0]!.file);
      const section = text === null ? null : renderFile(group, text, wholeFile(start.resolver, group[0]!.file));
      const heading = !group[0]!.resolved && (shown === 0 || sites[shown - 1]!.resolved) ? `${NAME_MATCH_HEADING}\n` : '';
      if (section === null || !builder.add(`${builder.sections === 0 ? '' : '\n'}${heading}${section}`)) break;
      shown += group.length;
    }
    const notes = [`${plural(total, 'reference')} to ${target.definition.name} (defined at ${where})${unresolvedNote(unresolved)}.`];
    if (offset > 0 || shown < all) notes.push(shown === 0 ? `None shown from ${offset + 1}.` : `Showing ${offset + 1}-${offset + shown} of ${all}.`);
    const next = offset + shown;
    if (shown < Math.min(limit, all - offset)) notes.push(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent: the other references are not shown)`);
    if (next < all && shown > 0) notes.push(`(more available - call find_references with after: "${encodeCursor(question, next - 1)}" to see the next ones)`);
    if (start.revisionNote !== null) notes.push(start.revisionNote);
    return { text: builder.finish(notes.join('\n')) };
  },
};

const NAME_MATCH_HEADING = 'Same-named uses matched by name only (they may mean another definition):';

function unresolvedNote(unresolved: number): string {
  if (unresolved === 0) return '';
  return `, and ${plural(unresolved, 'more same-named use')} that may mean it, matched by name only (a receiver whose type is not known, no import, or several definitions of the name tie), listed after them`;
}

/** The file with all its definitions: a file known by its reference group alone has none loaded. */
function wholeFile(resolver: Resolver, file: NavFile): NavFile {
  return file.symbols.definitions.length > 0 ? file : resolver.lookup.file(file) ?? file;
}

function withNote(text: string, note: string | null): string {
  return note === null ? text : `${text}${note}\n`;
}

/** Consecutive references of one file (the order keeps a file's references together). */
function groupByFile(sites: readonly ReferenceSite[]): ReferenceSite[][] {
  const groups: ReferenceSite[][] = [];
  for (const site of sites) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0]!.file === site.file) last.push(site);
    else groups.push([site]);
  }
  return groups;
}

/**
 * The header, then each reference's line with one line either side, overlapping windows merged,
 * each window after the symbol it is in when that changes.
 */
function renderFile(group: readonly ReferenceSite[], lines: readonly string[], whole: NavFile): string {
  const { repo, path } = group[0]!.file;
  let out = `${fileHeader(repo, path)}\n`;
  let end = -1;
  let inside: string | null = null;
  for (const site of group) {
    const from = Math.max(site.range.startLine - 1, end + 1);
    const to = Math.min(site.range.startLine + 1, lines.length - 1);
    if (to < from) continue;
    const enclosing = enclosingSymbol(whole.symbols.definitions, site.scope);
    if (enclosing !== inside) out += `(${enclosing})\n`;
    inside = enclosing;
    out += numberLines(lines.slice(from, to + 1), from + 1, MAX_LINE_CHARS);
    end = to;
  }
  return out;
}
