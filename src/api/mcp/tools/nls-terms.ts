/**
 * nls_search's reading of a natural-language query: filters kept as they are, the rest reduced to
 * search terms (stopwords dropped, identifiers split, words stemmed), and the one engine query that
 * ORs the terms together. It never runs the search.
 */
import { abbreviationOf, MIN_STEM, searchStem } from './nls-stem.js';
import { phraseSynonyms, synonymsOf } from './nls-synonyms.js';

export interface SearchTerm {
  /** Lower case; matched as a prefix at the start of a word or identifier part. */
  readonly text: string;
  readonly weight: number;
  /** Which query word it came from: files covering more concepts rank higher. */
  readonly concept: number;
  /** The question's own term this one is another form of (a synonym or abbreviation); absent for the question's own terms. */
  readonly formOf?: string;
}

export interface NlsQuery {
  readonly filters: readonly string[];
  readonly terms: readonly SearchTerm[];
  readonly concepts: number;
}

/** A whole identifier names one thing exactly, so it outweighs its parts. */
export const IDENTIFIER_WEIGHT = 2;
export const WORD_WEIGHT = 1;
export const ABBREVIATION_WEIGHT = 0.5;
/** Another word for the same thing: it finds the code that says it differently, but the question did not say it. */
export const SYNONYM_WEIGHT = 0.35;
/** Lines the engine may return: enough for BM25 statistics over a large result set. */
export const DEFAULT_NLS_COUNT = 3000;

const FILTER = /^-?(?:repo|r|file|f|rev|revision|lang|l|language|count|timeout|fork|archived):\S/i;

const STOPWORDS = new Set(`
a about above after again all also am an and any are as at be been before being below between both but by can
could did do does doing done down during each either else every few for from further had has have having he her
here hers him his how i if in into is it its itself just let me more most my no nor not now of off on once only or
other our ours out over own same she should so some such than that the their theirs them then there these they
this those through to too under until up upon us very via was we were what when where which while who whom why
will with within without would you your yours
code codebase function functions method methods file files class classes implementation implementations implement
implemented implements defined define definition logic find show shows work works working happen happens
use used uses using thing things part place places way ways actually exactly somewhere anywhere
`.trim().split(/\s+/));

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word.toLowerCase());
}

/** camelCase, PascalCase, snake_case, kebab-case, or letters mixed with digits. */
export function isIdentifier(word: string): boolean {
  return /[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z0-9][_-][A-Za-z0-9]|[A-Za-z]\d|\d[A-Za-z]/.test(word);
}

/** `parseHTTPRequest` → parse, http, request; `max_retry_count` → max, retry, count. */
export function splitIdentifier(word: string): string[] {
  return (word.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((part) => part.toLowerCase());
}

export function parseNlsQuery(query: string): NlsQuery {
  const filters: string[] = [];
  const terms = new Map<string, SearchTerm>();
  /** Each plain word of the question and the concept it joined (null when it added no term). */
  const words: { word: string; concept: number | null }[] = [];
  let concepts = 0;
  const addTerms = (candidates: readonly Omit<SearchTerm, 'concept'>[], concept: number): boolean => {
    const fresh = candidates.filter((c) => !terms.has(c.text));
    for (const c of candidates) {
      const known = terms.get(c.text);
      if (known !== undefined && known.weight < c.weight) terms.set(c.text, { text: c.text, weight: c.weight, concept: known.concept, ...(c.formOf === undefined ? {} : { formOf: c.formOf }) });
    }
    for (const c of fresh) terms.set(c.text, { ...c, concept });
    return fresh.length > 0;
  };
  for (const token of query.split(/\s+/).filter(Boolean)) {
    if (FILTER.test(token)) {
      filters.push(token);
      continue;
    }
    for (const word of token.split(/[^A-Za-z0-9_-]+/)) {
      const trimmed = word.replace(/^[_-]+|[_-]+$/g, '');
      const added = addTerms(termsOfWord(trimmed), concepts);
      for (const part of trimmed.split(/[_-]+/)) words.push({ word: part, concept: added ? concepts : null });
      if (added) concepts++;
    }
  }
  // A phrase is one concept ("regular expression": regex), so its words stop counting apart.
  const merged = new Map<number, number>();
  for (const phrase of phraseSynonyms(words.map((w) => w.word))) {
    const concept = words[phrase.at]!.concept;
    if (concept === null) continue;
    addTerms(phrase.terms.map((text) => ({ text, weight: WORD_WEIGHT })), concept);
    for (const w of words.slice(phrase.at + 1, phrase.at + phrase.length)) if (w.concept !== null && w.concept !== concept) merged.set(w.concept, concept);
  }
  return { filters, ...renumbered([...terms.values()], merged, concepts) };
}

/** Terms with merged concepts folded into their phrase's, concepts numbered 0… again. */
function renumbered(terms: readonly SearchTerm[], merged: ReadonlyMap<number, number>, concepts: number): { terms: SearchTerm[]; concepts: number } {
  if (merged.size === 0) return { terms: [...terms], concepts };
  const order = [...new Set(terms.map((t) => merged.get(t.concept) ?? t.concept))].sort((a, b) => a - b);
  const number = new Map(order.map((c, i) => [c, i]));
  return { terms: terms.map((t) => ({ ...t, concept: number.get(merged.get(t.concept) ?? t.concept)! })), concepts: order.length };
}

function termsOfWord(word: string): Omit<SearchTerm, 'concept'>[] {
  if (word === '') return [];
  const out: Omit<SearchTerm, 'concept'>[] = [];
  const add = (text: string, weight: number, formOf?: string): void => {
    if (text.length >= MIN_STEM && !out.some((t) => t.text === text)) out.push({ text, weight, ...(formOf === undefined ? {} : { formOf }) });
  };
  if (isIdentifier(word)) add(word.toLowerCase(), IDENTIFIER_WEIGHT);
  for (const part of isIdentifier(word) ? splitIdentifier(word) : [word.toLowerCase()]) {
    // Short parts (two letters and less) have no trigram: one would turn the whole OR into a full scan.
    if (part.length < MIN_STEM || isStopword(part) || /^\d+$/.test(part)) continue;
    const stemmed = searchStem(part);
    add(stemmed, WORD_WEIGHT);
    const short = abbreviationOf(stemmed);
    if (short !== null) add(short, ABBREVIATION_WEIGHT, stemmed);
    for (const synonym of synonymsOf(stemmed)) add(synonym, SYNONYM_WEIGHT, stemmed);
  }
  return out;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * One regexp query ORing every term, longest first so an alternation prefers whole identifiers.
 * A top-level alternation needs no group: `(...)` in a query would read as boolean grouping.
 */
export function engineQuery(nls: NlsQuery, defaultCount = DEFAULT_NLS_COUNT): string {
  const alternation = [...nls.terms].sort((a, b) => b.text.length - a.text.length || (a.text < b.text ? -1 : 1)).map((t) => escapeRegex(t.text)).join('|');
  const hasCount = nls.filters.some((f) => /^count:/i.test(f));
  return [...nls.filters, 'patterntype:regexp', alternation, ...(hasCount ? [] : [`count:${defaultCount}`])].join(' ');
}

/** The first line of the answer, so the agent sees what was actually searched: each concept's terms, other words for it in parentheses. */
export function describeTerms(nls: NlsQuery): string {
  const byConcept = new Map<number, SearchTerm[]>();
  for (const t of nls.terms) byConcept.set(t.concept, [...(byConcept.get(t.concept) ?? []), t]);
  const concepts = [...byConcept.values()].map((terms) => {
    const own = terms.filter((t) => t.weight > SYNONYM_WEIGHT).map((t) => t.text);
    const others = terms.filter((t) => t.weight <= SYNONYM_WEIGHT).map((t) => t.text);
    return others.length === 0 ? own.join(', ') : `${own.join(', ')} (or ${others.join(', ')})`;
  });
  return `Searched for: ${concepts.join(', ')} (stemmed; any term matches)`;
}
