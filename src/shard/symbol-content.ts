/**
 * Symbol tables in a content search: whether a file's matches hit a definition's name (the ranking
 * signal) and, for `select:symbol`, which definitions they hit. A stored table is decoded only when
 * the definition-name index says a matched word is defined in the file.
 */
import { includesSorted } from '../index/doc-set.js';
import type { LineMatch, SymbolMatch } from '../model/result.js';
import { DEFINITION_LINES } from './score.js';
import { definitionsHit, symbolMatch } from './symbol-matches.js';
import type { SymbolTaskPlan } from './symbol-plan.js';
import type { ShardSymbols } from './symbol-source.js';

export interface ContentSymbolFacts {
  /** A match overlaps a definition's name; null when the file has no stored table (a heuristic decides). */
  readonly definitionHit: boolean | null;
  /** In attach mode, the definitions hit (of the selected kind); otherwise null. */
  readonly symbols: SymbolMatch[] | null;
}

export type ContentSymbols = (doc: number, lines: readonly LineMatch[]) => ContentSymbolFacts;

const UNKNOWN: ContentSymbolFacts = { definitionHit: null, symbols: null };
const WORD = /[\p{L}\p{N}_$]/u;
const NOT_WORD = /[^\p{L}\p{N}_$]+/u;

export function contentSymbols(symbols: ShardSymbols, plan: SymbolTaskPlan | null): ContentSymbols {
  if (plan?.mode === 'attach') {
    return (doc, lines) => {
      const table = lines.length > 0 ? symbols.of(doc) : null;
      if (!table) return { definitionHit: null, symbols: [] };
      const hit = definitionsHit(table, lines);
      const matches = hit.map((i) => symbolMatch(table, i)).filter((m) => plan.kind === null || m.kind === plan.kind);
      return { definitionHit: hit.length > 0, symbols: matches };
    };
  }
  const names = symbols.names;
  if (!symbols.stored || !names) return () => UNKNOWN;
  const definers = new Map<string, Uint32Array>();
  const defines = (word: string, doc: number): boolean => {
    let docs = definers.get(word);
    if (!docs) definers.set(word, (docs = names.docs(word)));
    return includesSorted(docs, doc);
  };
  return (doc, lines) => {
    if (!symbols.hasTable(doc)) return UNKNOWN;
    const ranked = lines.slice(0, DEFINITION_LINES);
    if (!ranked.some((line) => matchedWords(line).some((word) => defines(word, doc)))) return { definitionHit: false, symbols: null };
    const table = symbols.of(doc);
    return { definitionHit: table !== null && definitionsHit(table, ranked).length > 0, symbols: null };
  };
}

/** The identifiers each match touches, widened to their whole words. */
function matchedWords(line: LineMatch): string[] {
  const points = [...line.line];
  return line.offsetAndLengths.flatMap(([offset, length]) => {
    let start = offset;
    let end = offset + length;
    while (start > 0 && WORD.test(points[start - 1]!)) start--;
    while (end < points.length && WORD.test(points[end]!)) end++;
    return points.slice(start, end).join('').split(NOT_WORD).filter((word) => word.length > 0);
  });
}
