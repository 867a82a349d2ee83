/**
 * A run: the posting lists of one batch of consecutive documents, sorted by trigram. Built in an
 * index worker by counting sort (no comparison sort of pairs); merged into a segment by merge.ts.
 */
import { maxTrigrams, type TrigramExtractor } from './trigrams.js';
import { writeGap } from '../postings.js';

/** Plain typed arrays only, so a run crosses the thread boundary by transfer. */
export interface PostingRun {
  /** Doc id of the batch's first document; the batch covers [firstDoc, firstDoc + docCount). */
  readonly firstDoc: number;
  readonly docCount: number;
  /** Distinct trigrams in the batch, ascending. */
  readonly trigrams: Uint32Array;
  /** Per trigram, end offset of its list in `bytes` (start is the previous end). */
  readonly ends: Uint32Array;
  /** Per trigram, the first doc id of its list (encoded as a gap from -1 in `bytes`). */
  readonly firstIds: Uint32Array;
  /** Per trigram, the last doc id of its list. */
  readonly lastIds: Uint32Array;
  readonly bytes: Uint8Array;
}

export interface RunBuilderTables {
  readonly extractor: TrigramExtractor;
  /** 2^24 counters, all zero between calls. */
  readonly counts: Uint32Array;
}

/** `docs` are the batch's contents in doc id order starting at `firstDoc`. */
export function buildRun(tables: RunBuilderTables, firstDoc: number, docs: readonly Uint8Array[]): PostingRun {
  let capacity = 0;
  for (const doc of docs) capacity += maxTrigrams(doc.length);
  const docTrigrams = new Uint32Array(capacity);
  const docEnds = new Uint32Array(docs.length);
  let n = 0;
  for (let d = 0; d < docs.length; d++) {
    n = tables.extractor.extract(docs[d]!, docTrigrams, n);
    docEnds[d] = n;
  }
  const trigrams = countTrigrams(tables.counts, docTrigrams, n);
  const listDocs = scatterDocs(tables.counts, trigrams, docTrigrams, docEnds, firstDoc, n);
  return encodeRun(tables.counts, trigrams, listDocs, firstDoc, docs.length);
}

/** Counts occurrences per trigram and returns the distinct trigrams, ascending. */
function countTrigrams(counts: Uint32Array, docTrigrams: Uint32Array, n: number): Uint32Array {
  const touched: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = docTrigrams[i]!;
    if (counts[t]++ === 0) touched.push(t);
  }
  return Uint32Array.from(touched).sort();
}

/**
 * Places each doc id into its trigram's slice of one array. Documents are visited in order, so
 * every slice comes out ascending. On return `counts[t]` holds the end of t's slice.
 */
function scatterDocs(counts: Uint32Array, trigrams: Uint32Array, docTrigrams: Uint32Array, docEnds: Uint32Array, firstDoc: number, n: number): Uint32Array {
  let offset = 0;
  for (let i = 0; i < trigrams.length; i++) {
    const t = trigrams[i]!;
    const c = counts[t]!;
    counts[t] = offset;
    offset += c;
  }
  const listDocs = new Uint32Array(n);
  let start = 0;
  for (let d = 0; d < docEnds.length; d++) {
    const end = docEnds[d]!;
    const id = firstDoc + d;
    for (let i = start; i < end; i++) listDocs[counts[docTrigrams[i]!]!++] = id;
    start = end;
  }
  return listDocs;
}

function encodeRun(counts: Uint32Array, trigrams: Uint32Array, listDocs: Uint32Array, firstDoc: number, docCount: number): PostingRun {
  const bytes = new Uint8Array(listDocs.length * 5);
  const ends = new Uint32Array(trigrams.length);
  const firstIds = new Uint32Array(trigrams.length);
  const lastIds = new Uint32Array(trigrams.length);
  let pos = 0;
  let start = 0;
  for (let i = 0; i < trigrams.length; i++) {
    const t = trigrams[i]!;
    const end = counts[t]!;
    counts[t] = 0;
    let previous = -1;
    firstIds[i] = listDocs[start]!;
    for (let k = start; k < end; k++) {
      const id = listDocs[k]!;
      pos = writeGap(bytes, pos, id, previous);
      previous = id;
    }
    lastIds[i] = previous;
    ends[i] = pos;
    start = end;
  }
  return { firstDoc, docCount, trigrams, ends, firstIds, lastIds, bytes: bytes.slice(0, pos) };
}
