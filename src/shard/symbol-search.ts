/**
 * One `type:symbol` shard task in a worker: definition names matched against the name index give
 * the candidate documents, filters narrow them, and only those tables are decoded. Sources without
 * an index (unindexed revisions) are parsed, after a literal-term test rules most files out.
 */
import type { SymbolMatch } from '../model/result.js';
import { emptyStats } from '../model/stats.js';
import type { FileSymbols } from '../model/symbols.js';
import { forEachDoc, type DocSet } from '../index/doc-set.js';
import { filterDocs } from './filters.js';
import { packLines } from './packed-lines.js';
import type { ShardFileMatch, ShardSearchInput, ShardSearchResult } from './search-shard.js';
import { symbolMatch } from './symbol-matches.js';
import { nameMatcher, type NameMatcher } from './symbol-names.js';
import type { SymbolTaskPlan } from './symbol-plan.js';
import { localDefinitions, type ShardSymbols } from './symbol-source.js';

export const SCORE_TIER = 1000;
export const SCORE_EXPORTED = 100;

export interface SymbolSearchInput extends ShardSearchInput {
  readonly symbols: ShardSymbols;
  readonly symbolPlan: SymbolTaskPlan;
}

export function searchSymbolShard(input: SymbolSearchInput): ShardSearchResult {
  const { plan, source, lo, hi } = input;
  const stats = emptyStats();
  stats.shardsSearched = 1;
  const started = performance.now();
  const matches = nameMatcher(plan);
  const candidates = filterDocs(namedDocs(input.symbols, matches, lo, hi), plan, source, lo, hi, input.compile);
  stats.candidatesMs = performance.now() - started;
  const verifyStarted = performance.now();
  const required = input.symbols.stored ? [] : input.symbolPlan.requiredTexts.map((spec) => new RegExp(spec.js, spec.caseless ? 'iu' : 'u'));
  const decoder = new TextDecoder();
  const files: ShardFileMatch[] = [];
  let found = 0;
  let limitHit = false;
  let timedOut = false;
  forEachDoc(candidates, lo, hi, input.deleted, (doc) => {
    if (Date.now() > input.deadline || (input.stop && Atomics.load(input.stop, 0) !== 0)) {
      timedOut = Date.now() > input.deadline;
      return false;
    }
    stats.candidates++;
    if (required.length > 0) {
      const text = decoder.decode(source.content(doc));
      if (!required.every((re) => re.test(text))) return true;
    }
    stats.docsScanned++;
    const table = input.symbols.of(doc);
    const symbols = table ? matchingDefinitions(table, matches, input.symbolPlan) : [];
    if (symbols.length === 0) return true;
    const score = Math.max(...symbols.map((s) => s.score));
    files.push({ doc, path: source.path(doc), lines: packLines([]), pathMatches: [], matchCount: symbols.length, score, symbols: symbols.map((s) => s.match) });
    found += symbols.length;
    if (found >= input.limit) {
      limitHit = true;
      return false;
    }
    return true;
  });
  stats.verifyMs = performance.now() - verifyStarted;
  return { files, limitHit, timedOut, stats };
}

/** Docs in [lo, hi) defining a matching name; null (every doc) when the source has no name index. */
function namedDocs(symbols: ShardSymbols, matches: NameMatcher, lo: number, hi: number): DocSet {
  if (!symbols.names) return null;
  const docs = new Set<number>();
  for (const name of symbols.names.all()) {
    if (matches(name) === 0) continue;
    for (const doc of symbols.names.docs(name)) if (doc >= lo && doc < hi) docs.add(doc);
  }
  return Uint32Array.from(docs).sort();
}

interface ScoredSymbol {
  readonly match: SymbolMatch;
  readonly score: number;
}

function matchingDefinitions(table: FileSymbols, matches: NameMatcher, symbolPlan: SymbolTaskPlan): ScoredSymbol[] {
  const local = localDefinitions(table);
  const out: ScoredSymbol[] = [];
  table.definitions.forEach((d, i) => {
    if (local[i] === 1) return;
    const tier = matches(d.name);
    if (tier === 0) return;
    const match = symbolMatch(table, i);
    if (symbolPlan.kind !== null && match.kind !== symbolPlan.kind) return;
    out.push({ match, score: tier * SCORE_TIER + (d.exported ? SCORE_EXPORTED : 0) });
  });
  return out.sort((a, b) => a.match.range.startLine - b.match.range.startLine || a.match.range.startColumn - b.match.range.startColumn);
}
