/**
 * The `find_references` tool (reference §1.4): from a symbol's definition, the references that
 * resolve to it across the readable repositories, each with a line of context either side, most
 * relevant first, within `limit` and the answer budget, with the total always reported.
 */
import { findDefinition, parseSymbolName } from '../../../symbols/navigation/definition.js';
import { findReferences, type ReferenceSite } from '../../../symbols/navigation/references.js';
import { AnswerBuilder } from '../answer.js';
import { objectSchema } from '../arguments.js';
import { fileHeader, numberLines, plural } from '../format.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
import { FileLines, notFoundAnswer, positionOf, startNavigation, type NavigationArgs } from './nav-origin.js';
import { COLUMN_ARG, LINE_ARG, REPO_ARG, REVISION_ARG } from './nav-schema.js';

export const DEFAULT_REFERENCE_LIMIT = 10;
export const MAX_REFERENCE_LIMIT = 1000;
const MAX_LINE_CHARS = 256;

export interface FindReferencesArgs extends NavigationArgs {
  readonly limit?: number;
}

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
Finds references to a symbol: the places that use the definition the symbol resolves to from the given file, across repositories (cross-repository references included).
Same-named symbols of other scopes or modules are left out, as are comments and strings.
References come most relevant first (the definition's file, its repository, then other repositories), each as numbered lines under a "# repo – path" header with one line of context either side.
Returns ${DEFAULT_REFERENCE_LIMIT} references unless a limit is given, and says how many there are in all.
Pass line (and column) of an occurrence to choose which of several same-named bindings in the file is meant.
If the symbol is not found, returns "Symbol not found".`;

export const findReferencesTool: ToolDefinition<FindReferencesArgs> = {
  name: 'find_references',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    repo: REPO_ARG,
    path: { type: 'string', description: 'The path to the file within the repository containing the symbol reference, e.g. "src/utils/date.ts".' },
    symbol: { type: 'string', description: 'The name of the symbol to find references for.' },
    revision: REVISION_ARG,
    limit: { type: 'integer', minimum: 1, maximum: MAX_REFERENCE_LIMIT, description: `The maximum number of references to return. Defaults to ${DEFAULT_REFERENCE_LIMIT}.` },
    line: LINE_ARG,
    column: COLUMN_ARG,
  }, ['repo', 'path', 'symbol']),
  async run(args, ctx) {
    const name = parseSymbolName(args.symbol);
    if (name === null) throw new ToolError('"symbol" is empty: pass the name of a function, type, variable or method.');
    const position = positionOf(args);
    const start = await startNavigation(ctx, args);
    const definition = findDefinition(start.resolver, start.origin, name, position);
    if (definition === null) {
      const outside = notFoundAnswer(args.symbol, name.name, start);
      if (outside instanceof ToolError) throw outside;
      return { text: `${outside}Its references outside the indexed repositories are not known; use keyword_search for its uses here.\n` };
    }
    const target = definition.best.site;
    const limit = args.limit ?? DEFAULT_REFERENCE_LIMIT;
    const { total, sites } = findReferences(start.resolver, target, limit);
    const where = `${fileHeader(target.file.repo, target.file.path).slice(2)}:${target.definition.nameRange.startLine + 1}`;
    if (total === 0) return { text: withNote(`No references to ${target.definition.name} (defined at ${where}) were found.\n`, start.revisionNote) };
    const builder = new AnswerBuilder(ctx.maxAnswerTokens);
    const lines = new FileLines(ctx);
    let shown = 0;
    for (const group of groupByFile(sites)) {
      const text = await lines.get(group[0]!.file);
      const section = text === null ? null : renderFile(group, text);
      if (section === null || !builder.add(`${builder.sections === 0 ? '' : '\n'}${section}`)) break;
      shown += group.length;
    }
    const notes = [`Showing ${shown} of ${plural(total, 'reference')} to ${target.definition.name} (defined at ${where}).`];
    if (shown < Math.min(limit, total)) notes.push(`(the answer budget of ${plural(ctx.maxAnswerTokens, 'token')} is spent: the other references are not shown)`);
    else if (shown < total) notes.push(`(more references available - call find_references with limit: ${Math.min(MAX_REFERENCE_LIMIT, total)} to see more)`);
    if (start.revisionNote !== null) notes.push(start.revisionNote);
    return { text: builder.finish(notes.join('\n')) };
  },
};

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

/** The header, then each reference's line with one line either side, overlapping windows merged. */
function renderFile(group: readonly ReferenceSite[], lines: readonly string[]): string {
  const { repo, path } = group[0]!.file;
  let out = `${fileHeader(repo, path)}\n`;
  let end = -1;
  for (const site of group) {
    const from = Math.max(site.range.startLine - 1, end + 1);
    const to = Math.min(site.range.startLine + 1, lines.length - 1);
    if (to < from) continue;
    out += numberLines(lines.slice(from, to + 1), from + 1, MAX_LINE_CHARS);
    end = to;
  }
  return out;
}
