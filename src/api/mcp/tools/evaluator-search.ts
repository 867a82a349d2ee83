/**
 * search.keyword, search.nls and search.symbols for evaluator scripts: the engine the search
 * tools use, with the caller's permissions, answered as rows (one per matched line, 1-based lines
 * and columns) instead of rendered text. A list whose search hit the engine's limit has `truncated`.
 */
import type { FileMatch, SearchResponse } from '../../../model/result.js';
import { ToolError, type ToolContext } from '../tool.js';
import type { ScriptArgs } from './evaluator-args.js';
import { nlsRankedFiles } from './nls-search.js';
import { parseNlsQuery } from './nls-terms.js';

/** Rows a search may hand a script (the engine's own limits apply first). */
const MAX_ROWS = 100_000;
const SYMBOL_TYPE = /(?:^|\s)type:symbol(?:\s|$)/i;

/** A list with named fields: they reach the script as the table's string keys. */
export type Rows<Row> = Row[] & { truncated?: boolean };

/** Rows name no commit: they come from the index at the default branch, which source.read reads by default. */
export interface LineRow {
  readonly repo: string;
  readonly path: string;
  readonly language?: string;
  /** Absent for a match on the path alone. */
  readonly line?: number;
  readonly column?: number;
  readonly text?: string;
  /** search.nls: the file's place in the ranking, 1 first. */
  readonly rank?: number;
}

export interface SymbolRow {
  readonly repo: string;
  readonly path: string;
  readonly language?: string;
  readonly line: number;
  readonly column: number;
  readonly name: string;
  readonly kind: string;
  readonly container?: string;
  readonly exported: boolean;
}

function engine(ctx: ToolContext, query: string): Promise<SearchResponse> {
  return ctx.services.search.search({ query, signal: ctx.signal, canRead: ctx.principal.canRead });
}

function limitOf(args: ScriptArgs): number {
  return args.options(2, ['limit']).integer('limit', 1, MAX_ROWS) ?? MAX_ROWS;
}

function fileMatches(response: SearchResponse): FileMatch[] {
  return response.matches.filter((m): m is FileMatch => m.type !== 'repo' && m.type !== 'commit');
}

/** Rows are built field by field, in this order, rather than spread from a base: a spread per matched line cost more than the search. */
function fileRows(match: FileMatch, rank?: number): LineRow[] {
  const base = (): Record<string, unknown> => {
    const row: Record<string, unknown> = { repo: match.repository, path: match.path };
    if (match.language !== null) row['language'] = match.language;
    if (rank !== undefined) row['rank'] = rank;
    return row;
  };
  if (match.lineMatches.length === 0) return [base() as unknown as LineRow];
  return match.lineMatches.map((lm) => {
    const row = base();
    row['line'] = lm.lineNumber + 1;
    row['column'] = (lm.offsetAndLengths[0]?.[0] ?? 0) + 1;
    row['text'] = lm.line;
    return row as unknown as LineRow;
  });
}

function capped<Row>(rows: Row[], limit: number, truncated: boolean): Rows<Row> {
  const out: Rows<Row> = rows.length > limit ? rows.slice(0, limit) : rows;
  if (truncated || rows.length > limit) out.truncated = true;
  return out;
}

export async function keywordRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<LineRow>> {
  const query = args.string(1, 'the query');
  const limit = limitOf(args);
  const response = await engine(ctx, query);
  return capped(fileMatches(response).flatMap((m) => fileRows(m)), limit, response.limitHit);
}

/** nls_search's terms, exclusions and ranking; rows of the best file first. */
export async function nlsRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<LineRow>> {
  const query = args.string(1, 'the query');
  const limit = limitOf(args);
  const nls = parseNlsQuery(query);
  if (nls.terms.length === 0) throw new ToolError(`no search terms left in "${query}": every word was a filter, a common English word or shorter than 3 characters`);
  const { ranked, candidates } = await nlsRankedFiles(nls, ctx);
  return capped(ranked.flatMap((file, i) => fileRows(file.match, i + 1)), limit, candidates.limitHit);
}

export async function symbolRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<SymbolRow>> {
  const query = args.string(1, 'the query');
  const limit = limitOf(args);
  const response = await engine(ctx, SYMBOL_TYPE.test(query) ? query : `type:symbol ${query}`);
  const rows: SymbolRow[] = [];
  for (const match of fileMatches(response)) {
    for (const symbol of match.symbols ?? []) {
      rows.push({
        repo: match.repository, path: match.path, ...(match.language === null ? {} : { language: match.language }),
        line: symbol.range.startLine + 1, column: symbol.range.startColumn + 1, name: symbol.name, kind: symbol.kind.toLowerCase(),
        ...(symbol.containerName === null ? {} : { container: symbol.containerName }), exported: symbol.exported,
      });
    }
  }
  return capped(rows, limit, response.limitHit);
}
