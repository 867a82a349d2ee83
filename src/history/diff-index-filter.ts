/**
 * Which candidate commits a diff search must read through git: those the history index does not
 * hold, and those whose changed lines have the trigrams a match needs. No false negatives: a
 * commit is passed over only when the index proves none of its searched lines can match.
 */
import { ADDED_LINE, postingKey, REMOVED_LINE, type LineSide } from '../index/history/diff-postings.js';
import { includesSorted, intersect, union, type DocSet } from '../index/doc-set.js';
import type { HistoryIndex } from '../index/history/history-store.js';
import type { TrigramQuery } from '../model/trigram.js';
import { ByteBudgetCache, identityOf, stringBytes } from './byte-budget-cache.js';

/** The part of the index a search reads. */
export type DiffIndexReader = Pick<HistoryIndex, 'ordinalOf' | 'postings' | 'record' | 'deflatedRecord' | 'nextOrdinal'>;

const SIDES: readonly LineSide[] = [ADDED_LINE, REMOVED_LINE];

/** Ascending ordinals, or null for every commit. */
type OrdinalSet = DocSet;

/**
 * The commits recent queries' postings allow, per index, bounded by bytes: each page of a search
 * asks again for the same query (common trigrams' lists take tens of milliseconds to decode), and
 * on a large repository one query's list alone takes megabytes. Keyed by the next ordinal too,
 * since a batch adds postings and that ordinal in one transaction.
 */
export const MATCHING_CACHE_BYTES = 64 * 1024 * 1024;
/** Commits whose answer each cached query remembers: a page asks again about those the page before passed over. */
const MAX_REMEMBERED = 1 << 14;
/** A remembered answer's map entry and oid string, at most. */
const REMEMBERED_BYTES = 160;
export const matchingCache = new ByteBudgetCache<string, Matching>(MATCHING_CACHE_BYTES, (matching, key) => stringBytes(key) + (matching.ordinals?.byteLength ?? 0) + MAX_REMEMBERED * REMEMBERED_BYTES);

interface Matching {
  readonly ordinals: OrdinalSet;
  /** Per commit asked about, whether its diff must be read. */
  readonly answers: Map<string, boolean>;
}

/**
 * Per oid, 1 when its diff must be read. `query` is what some searched line must hold (an OR over
 * the atoms that report hits); `searched` is LINE_ADDED | LINE_REMOVED bits.
 */
export function commitsToRead(index: DiffIndexReader, query: TrigramQuery, searched: number, oids: readonly string[]): Uint8Array {
  const mustRead = commitFilter(index, query, searched);
  return Uint8Array.from(oids, (oid) => (mustRead(oid) ? 1 : 0));
}

/** As commitsToRead, one commit at a time: a page asks only about the commits it reaches. */
export function commitFilter(index: DiffIndexReader, query: TrigramQuery, searched: number): (oid: string) => boolean {
  const { ordinals, answers } = matchingOrdinals(index, query, searched);
  if (ordinals === null) return () => true;
  return (oid) => {
    let answer = answers.get(oid);
    if (answer === undefined) {
      const ordinal = index.ordinalOf(oid);
      answer = ordinal === undefined || includesSorted(ordinals, ordinal);
      if (answers.size < MAX_REMEMBERED) answers.set(oid, answer);
    }
    return answer;
  };
}

/** The indexed commits whose searched lines have what `query` asks for (ascending; null for all of them). */
function matchingOrdinals(index: DiffIndexReader, query: TrigramQuery, searched: number): Matching {
  const key = `${identityOf(index)} ${index.nextOrdinal()} ${searched} ${JSON.stringify(query)}`;
  let matching = matchingCache.get(key);
  if (matching === undefined) matchingCache.set(key, (matching = { ordinals: evaluatePostings(index, query, searched), answers: new Map() }));
  return matching;
}

function evaluatePostings(index: DiffIndexReader, query: TrigramQuery, searched: number): OrdinalSet {
  const cache = new Map<number, Uint32Array>();
  const listOf = (trigram: number): Uint32Array => {
    const sides = SIDES.filter((side) => (searched & side) !== 0);
    const lists = sides.map((side) => {
      const key = postingKey(trigram, side);
      let list = cache.get(key);
      if (!list) cache.set(key, (list = index.postings(key)));
      return list;
    });
    return lists.reduce((all, list) => union(all, list)!, new Uint32Array(0));
  };
  return evaluate(query, listOf);
}

/** The highlighted atoms' queries ORed: a commit is reported only when one of them matches a line. */
export function hitQuery(trigrams: readonly TrigramQuery[], highlight: readonly number[]): TrigramQuery {
  const args = highlight.map((atom) => trigrams[atom] ?? { op: 'all' as const });
  return args.length === 1 ? args[0]! : { op: 'or', args };
}

function evaluate(query: TrigramQuery, listOf: (trigram: number) => Uint32Array): OrdinalSet {
  switch (query.op) {
    case 'all':
      return null;
    case 'none':
      return new Uint32Array(0);
    case 'tri':
      return listOf(query.trigram);
    case 'and':
    case 'near': {
      let acc: OrdinalSet = null;
      for (const arg of query.args) {
        acc = intersect(acc, evaluate(arg, listOf));
        if (acc !== null && acc.length === 0) return acc;
      }
      return acc;
    }
    case 'or': {
      let acc: OrdinalSet = new Uint32Array(0);
      for (const arg of query.args) {
        acc = union(acc, evaluate(arg, listOf));
        if (acc === null) return null;
      }
      return acc;
    }
  }
}
