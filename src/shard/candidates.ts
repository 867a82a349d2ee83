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
  switch (q.op) {
    case 'all':
      return null;
    case 'none':
      return new Uint32Array(0);
    case 'tri': {
      const ids = source.postings(q.trigram, lo, hi);
      if (ids !== null) counters.trigramLookups++;
      return ids;
    }
    case 'and': {
      let acc: DocSet = null;
      for (const arg of q.args) {
        acc = intersect(acc, evalTrigramQuery(arg, source, lo, hi, counters));
        if (acc !== null && acc.length === 0) break;
      }
      return acc;
    }
    case 'or': {
      let acc: DocSet = new Uint32Array(0);
      for (const arg of q.args) {
        acc = union(acc, evalTrigramQuery(arg, source, lo, hi, counters));
        if (acc === null) break;
      }
      return acc;
    }
  }
}
