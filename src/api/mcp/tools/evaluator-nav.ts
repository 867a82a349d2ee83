/**
 * nav.definition and nav.references for evaluator scripts: go_to_definition's and
 * find_references's resolution (symbols/navigation), with the caller's permissions, as plain
 * values. A symbol that resolves to nothing is nil, as in Lua, not an error.
 */
import type { DefinitionSite } from '../../../model/symbols.js';
import { findDefinition, parseSymbolName } from '../../../symbols/navigation/definition.js';
import type { NavFile } from '../../../symbols/navigation/model.js';
import { findReferences } from '../../../symbols/navigation/references.js';
import { ToolError, type ToolContext } from '../tool.js';
import type { ScriptArgs, ScriptOptions } from './evaluator-args.js';
import type { Rows } from './evaluator-search.js';
import { enclosingSymbol } from './enclosing-symbol.js';
import { DEFINITION_MAX_LINES } from './go-to-definition.js';
import { FileLines, positionOf, startNavigation, type NavigationArgs, type NavigationStart } from './nav-origin.js';

const NAV_OPTIONS = ['repo', 'path', 'symbol', 'revision', 'line', 'column'];
const DEFAULT_REFERENCES = 100;
const MAX_REFERENCES = 1000;
const MAX_POSITION = 10_000_000;

export interface ReferenceRow {
  readonly repo: string;
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  /** False for a same-named use matched by name only. */
  readonly resolved: boolean;
  /** What it sits in: "in function main", "at file level". */
  readonly container: string;
}

function navigationArgs(opts: ScriptOptions): NavigationArgs {
  const line = opts.integer('line', 1, MAX_POSITION);
  const column = opts.integer('column', 1, MAX_POSITION);
  const revision = opts.string('revision');
  return {
    repo: opts.requiredString('repo', 'github.com/org/repo'), path: opts.requiredString('path', 'src/main.go'), symbol: opts.requiredString('symbol', 'parseConfig'),
    ...(revision === undefined ? {} : { revision }), ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }),
  };
}

async function resolve(ctx: ToolContext, nav: NavigationArgs): Promise<{ start: NavigationStart; found: ReturnType<typeof findDefinition> }> {
  const name = parseSymbolName(nav.symbol);
  if (name === null) throw new ToolError('option symbol is empty: pass the name of a function, type, variable or method');
  const start = await startNavigation(ctx, nav);
  return { start, found: findDefinition(start.resolver, start.origin, name, positionOf(nav)) };
}

export async function definitionValue(ctx: ToolContext, args: ScriptArgs): Promise<DefinitionSite | null> {
  const { found } = await resolve(ctx, navigationArgs(args.options(1, NAV_OPTIONS)));
  if (found === null) return null;
  const { file, definition } = found.best.site;
  const lines = (await new FileLines(ctx).get(file)) ?? [];
  const first = definition.range.startLine;
  return {
    repo: file.repo, path: file.path, commit: file.commit, name: definition.name, kind: definition.kind,
    line: definition.nameRange.startLine + 1, column: definition.nameRange.startColumn + 1, endLine: definition.range.endLine + 1,
    text: lines.slice(first, Math.min(definition.range.endLine + 1, first + DEFINITION_MAX_LINES)).map((l) => `${l}\n`).join(''),
  };
}

export async function referenceRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<ReferenceRow> & { total?: number; unresolved?: number } | null> {
  const opts = args.options(1, [...NAV_OPTIONS, 'limit']);
  const limit = opts.integer('limit', 1, MAX_REFERENCES) ?? DEFAULT_REFERENCES;
  const { start, found } = await resolve(ctx, navigationArgs(opts));
  if (found === null) return null;
  const { total, unresolved, sites } = findReferences(start.resolver, found.best.site, { offset: 0, limit });
  const lines = new FileLines(ctx);
  const rows: Rows<ReferenceRow> & { total?: number; unresolved?: number } = [];
  for (const site of sites) {
    const text = (await lines.get(site.file))?.[site.range.startLine] ?? '';
    rows.push({
      repo: site.file.repo, path: site.file.path, line: site.range.startLine + 1, column: site.range.startColumn + 1, text,
      resolved: site.resolved, container: enclosingSymbol(wholeFile(start, site.file).symbols.definitions, site.scope),
    });
  }
  rows.total = total;
  rows.unresolved = unresolved;
  if (total + unresolved > rows.length) rows.truncated = true;
  return rows;
}

/** The file with all its definitions: one known by its reference group alone has none loaded. */
function wholeFile(start: NavigationStart, file: NavFile): NavFile {
  return file.symbols.definitions.length > 0 ? file : start.resolver.lookup.file(file) ?? file;
}
