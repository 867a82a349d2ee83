/**
 * Candidate selection: evaluates a trigram query against a source's posting lists.
 * Contract: never drops a document whose content can match (no false negatives); the verifier
 * removes the false positives. A source without postings makes every document a candidate.
 */
import type { TrigramQuery } from '../model/trigram.js';
import type { SegmentSource } from '../index/store.js';
import { intersect, union, type DocSet } from '../index/doc-set.js';

export interface CandidateCounters {
  trigramLookups: number;
}

export function evalTrigramQuery(q: TrigramQuery, source: SegmentSource, lo: number, hi: number, counters: CandidateCounters): DocSet {
  // Overlapping strings share trigrams (near groups keep theirs): each list is decoded once.
  const decoded = new Map<number, DocSet>();
  const postings = (trigram: number): DocSet => {
    let ids = decoded.get(trigram);
    if (ids === undefined) {
      ids = source.postings(trigram, lo, hi);
      if (ids !== null) counters.trigramLookups++;
      decoded.set(trigram, ids);
    }
    return ids;
  };
  const keep = (trigram: number, ids: Uint32Array): Uint32Array | null => {
    const kept = source.keepWithTrigram?.(trigram, ids) ?? null;
    if (kept !== null) counters.trigramLookups++;
    return kept;
  };
  return evaluate(q, { source, postings, keep });
}

interface Lists {
  readonly source: SegmentSource;
  postings(trigram: number): DocSet;
  /** `ids` less those without the trigram, when its list is a bitset; else null. */
  keep(trigram: number, ids: Uint32Array): Uint32Array | null;
}

function evaluate(q: TrigramQuery, lists: Lists): DocSet {
  switch (q.op) {
    case 'all':
      return null;
    case 'none':
      return new Uint32Array(0);
    case 'tri':
      return lists.postings(q.trigram);
    case 'and':
    case 'near':
      return intersectAll(q.args, lists);
    case 'or': {
      let acc: DocSet = new Uint32Array(0);
      for (const arg of q.args) {
        acc = union(acc, evaluate(arg, lists));
        if (acc === null) break;
      }
      return acc;
    }
  }
}

/**
 * An AND, cheapest first: decoded lists by size, then the other args, then bitset lists, which
 * filter what is left by testing bits (a trigram in most documents costs nothing to decode).
 */
function intersectAll(args: readonly TrigramQuery[], lists: Lists): DocSet {
  const { source } = lists;
  const decoded: { trigram: number; bytes: number }[] = [];
  const bitsets: number[] = [];
  const others: TrigramQuery[] = [];
  for (const arg of args) {
    if (arg.op !== 'tri' || !source.postingShape) {
      others.push(arg);
      continue;
    }
    const shape = source.postingShape(arg.trigram);
    if (shape === null) return new Uint32Array(0);
    if (shape.bitset) bitsets.push(arg.trigram);
    else decoded.push({ trigram: arg.trigram, bytes: shape.bytes });
  }
  decoded.sort((a, b) => a.bytes - b.bytes);
  let acc: DocSet = null;
  const steps = [...decoded.map((d) => () => lists.postings(d.trigram)), ...others.map((arg) => () => evaluate(arg, lists))];
  for (const step of steps) {
    acc = intersect(acc, step());
    if (acc !== null && acc.length === 0) return acc;
  }
  for (const trigram of bitsets) {
    acc = acc === null ? lists.postings(trigram) : lists.keep(trigram, acc) ?? intersect(acc, lists.postings(trigram));
    if (acc !== null && acc.length === 0) return acc;
  }
  return acc;
}

