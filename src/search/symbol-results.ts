/**
 * Symbol matches on the main thread: `select:symbol(.<kind>)` over ranked file matches, and the
 * merge of one file's symbols found by two basic queries. Plain data in, plain data out.
 */
import type { FileMatch, SymbolMatch } from '../model/result.js';
import type { SelectKind } from '../query/ast.js';
import { selectedKind } from './symbol-plan.js';

/** Each file becomes a symbol match of the definitions it carries (of the kind asked for); files without any are dropped. */
export function selectSymbols(files: readonly FileMatch[], select: SelectKind): FileMatch[] {
  const kind = selectedKind(select);
  const out: FileMatch[] = [];
  for (const file of files) {
    const symbols = (file.symbols ?? []).filter((s) => kind === null || s.kind === kind);
    if (symbols.length === 0) continue;
    out.push({ ...file, type: 'symbol', lineMatches: [], pathMatches: [], symbols, matchCount: symbols.length });
  }
  return out;
}

/** The union of two symbol lists of one file, in position order; undefined when neither has one. */
export function mergeSymbols(a: readonly SymbolMatch[] | undefined, b: readonly SymbolMatch[] | undefined): readonly SymbolMatch[] | undefined {
  if (!a || !b) return a ?? b;
  const key = (s: SymbolMatch): string => `${s.range.startLine}:${s.range.startColumn}:${s.name}`;
  const byKey = new Map([...a, ...b].map((s) => [key(s), s]));
  return [...byKey.values()].sort((x, y) => x.range.startLine - y.range.startLine || x.range.startColumn - y.range.startColumn);
}

/** Sourcegraph's symbol URL: the blob at the match's commit, the name's range as #Lline:col-line:col (1-based). */
export function symbolUrl(file: Pick<FileMatch, 'repository' | 'commit' | 'path'>, symbol: SymbolMatch): string {
  const r = symbol.range;
  return `/${file.repository}@${file.commit}/-/blob/${file.path}#L${r.startLine + 1}:${r.startColumn + 1}-${r.endLine + 1}:${r.endColumn + 1}`;
}
