/**
 * nls_search's candidate files: the engine collects matched lines in index order until its line
 * budget, so common terms ("line", "file") can fill the budget before a file holding the rare terms
 * that name the answer is reached. When that happens the rarest terms are searched again on their
 * own, and the leading files are read whole, so they are ranked on every line that matches.
 */
import type { FileMatch, LineMatch, RepoMatch, SearchResponse } from '../../../model/result.js';
import { splitLines } from '../format.js';
import { rankFiles } from './nls-rank.js';
import { engineQuery, escapeRegex, type NlsQuery } from './nls-terms.js';

export interface Candidates {
  readonly files: readonly FileMatch[];
  readonly repos: readonly RepoMatch[];
  /** The first search stopped at its line budget: statistics over the rest of the code are estimates. */
  readonly limitHit: boolean;
  readonly skipped: SearchResponse['skipped'];
}

export type EngineSearch = (query: string) => Promise<SearchResponse>;
/** A matched file's text from the index, or null when it cannot be read. */
export type ReadText = (file: FileMatch) => Promise<string | null>;

/** The rare-term search keeps terms whose lines together fill at most this share of the first search's budget. */
const RARE_SHARE = 0.25;
/** Leading files read whole for the final ranking: more than an answer shows. */
export const RERANKED_FILES = 20;

/**
 * `restrict` holds filters that narrow every search (the exclusions of copies and documents);
 * `collectionSize` is the number of indexed files, BM25's document count.
 */
export async function retrieveCandidates(nls: NlsQuery, restrict: readonly string[], search: EngineSearch, readText: ReadText, collectionSize: number): Promise<Candidates> {
  const first = await search([engineQuery(nls), ...restrict].join(' '));
  const files = new Map(contentFiles(first).map((f) => [fileKey(f), f]));
  if (!first.limitHit) return { files: [...files.values()], repos: repoMatches(first), limitHit: false, skipped: first.skipped };

  const rare = rareTerms(nls, [...files.values()]);
  if (rare.terms.length > 0 && rare.terms.length < nls.terms.length) {
    for (const f of contentFiles(await search([engineQuery(rare), ...restrict].join(' ')))) files.set(fileKey(f), mergeLines(files.get(fileKey(f)), f));
  }
  // A file path filter would cost a regex compile per search: the index hands out the texts cheaper.
  const anyTerm = new RegExp(nls.terms.map((t) => escapeRegex(t.text)).join('|'), 'gi');
  for (const f of rankFiles([...files.values()], nls, collectionSize).slice(0, RERANKED_FILES).map((r) => r.match)) {
    const text = await readText(f);
    if (text !== null) files.set(fileKey(f), { ...f, lineMatches: matchedLines(text, anyTerm), matchCount: f.matchCount });
  }
  return { files: [...files.values()], repos: repoMatches(first), limitHit: true, skipped: first.skipped };
}

/** The terms with the fewest matched lines in the first search, as many as fit in RARE_SHARE of its lines. */
function rareTerms(nls: NlsQuery, files: readonly FileMatch[]): NlsQuery {
  const patterns = nls.terms.map((t) => new RegExp(escapeRegex(t.text), 'i'));
  const lines = nls.terms.map(() => 0);
  let total = 0;
  for (const f of files) {
    for (const lm of f.lineMatches) {
      total++;
      patterns.forEach((p, t) => { if (p.test(lm.line)) lines[t]!++; });
    }
  }
  const order = nls.terms.map((_, t) => t).sort((a, b) => lines[a]! - lines[b]!);
  const kept = new Set<number>();
  let used = 0;
  for (const t of order) {
    if (kept.size > 0 && used + lines[t]! > RARE_SHARE * total) break;
    kept.add(t);
    used += lines[t]!;
  }
  return { ...nls, terms: nls.terms.filter((_, t) => kept.has(t)) };
}

/** Every line of the text where a term matches, numbered from 0 as the engine numbers them. */
function matchedLines(text: string, anyTerm: RegExp): LineMatch[] {
  const out: LineMatch[] = [];
  splitLines(text).forEach((line, lineNumber) => {
    const offsetAndLengths: [number, number][] = [];
    anyTerm.lastIndex = 0;
    for (let m = anyTerm.exec(line); m !== null; m = anyTerm.exec(line)) {
      offsetAndLengths.push([m.index, m[0].length]);
      anyTerm.lastIndex = m.index + Math.max(1, m[0].length);
    }
    if (offsetAndLengths.length > 0) out.push({ line, lineNumber, offsetAndLengths });
  });
  return out;
}

function mergeLines(known: FileMatch | undefined, found: FileMatch): FileMatch {
  if (known === undefined) return found;
  const byLine = new Map<number, LineMatch>(known.lineMatches.map((lm) => [lm.lineNumber, lm]));
  for (const lm of found.lineMatches) byLine.set(lm.lineNumber, lm);
  const lineMatches = [...byLine.values()].sort((a, b) => a.lineNumber - b.lineNumber);
  return { ...known, lineMatches, matchCount: Math.max(1, lineMatches.length) };
}

const fileKey = (f: FileMatch): string => `${f.repositoryID}\0${f.commit}\0${f.path}`;
const contentFiles = (r: SearchResponse): FileMatch[] => r.matches.filter((m): m is FileMatch => m.type !== 'repo');
const repoMatches = (r: SearchResponse): RepoMatch[] => r.matches.filter((m): m is RepoMatch => m.type === 'repo');
