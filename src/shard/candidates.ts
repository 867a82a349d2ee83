/**
 * Candidate selection: evaluates a trigram query against a source's posting lists.
 * Contract: never drops a document whose content can match (no false negatives); the verifier
 * removes the false positives. A source without postings makes every document a candidate.
 */
import type { TrigramQuery } from '../model/trigram.js';
import type { SegmentSource } from '../index/store.js';
import { intersect, union, type DocSet } from './doc-set.js';

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
  return evaluate(q, postings);
}

function evaluate(q: TrigramQuery, postings: (trigram: number) => DocSet): DocSet {
  switch (q.op) {
    case 'all':
      return null;
    case 'none':
      return new Uint32Array(0);
    case 'tri':
      return postings(q.trigram);
    case 'and':
    case 'near': {
      let acc: DocSet = null;
      for (const arg of q.args) {
        acc = intersect(acc, evaluate(arg, postings));
        if (acc !== null && acc.length === 0) break;
      }
      return acc;
    }
    case 'or': {
      let acc: DocSet = new Uint32Array(0);
      for (const arg of q.args) {
        acc = union(acc, evaluate(arg, postings));
        if (acc === null) break;
      }
      return acc;
    }
  }
}
