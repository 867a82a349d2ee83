/**
 * Posting lists of the history index, built from a packed batch of commits' changed lines: for
 * each trigram and side (added, removed), the ordinals of the commits with a line of that side
 * containing it. Pure and allocation-light; runs in an index worker, never on the main thread.
 */
import { writeGap } from '../postings.js';
import { maxTrigrams, type TrigramExtractor } from '../build/trigrams.js';

/** Line flags as history/diff-lines.ts packs them. */
export const ADDED_LINE = 1;
export const REMOVED_LINE = 2;

export type LineSide = typeof ADDED_LINE | typeof REMOVED_LINE;

/** The key of one trigram's list for one side: trigrams are 24 bits, so keys stay below 2^25. */
export function postingKey(trigram: number, side: LineSide): number {
  return trigram * 2 + (side === REMOVED_LINE ? 1 : 0);
}

export interface DiffPostingsJob {
  /** Every changed line's UTF-8 text, back to back. */
  readonly text: Uint8Array;
  /** Line i ends at byte ends[i] of text. */
  readonly ends: Uint32Array;
  /** ADDED_LINE or REMOVED_LINE per line. */
  readonly flags: Uint8Array;
  /** Commit i owns the lines before line index commitEnds[i]. */
  readonly commitEnds: Uint32Array;
  /** Commit i's ordinal in the repository's index; ascending. */
  readonly ordinals: Uint32Array;
}

export interface DiffPostingsRun {
  /** Ascending posting keys. */
  readonly keys: Uint32Array;
  /** Key i's list is bytes[ends[i - 1] (0 for the first) .. ends[i]), encodePostings of ordinals. */
  readonly ends: Uint32Array;
  readonly bytes: Uint8Array;
}

/** A commit index within a batch takes the low 26 bits of a pair; a batch holds fewer commits. */
const LOCAL_BITS = 2 ** 26;

export const MAX_BATCH_COMMITS = LOCAL_BITS - 1;

export function buildDiffPostings(job: DiffPostingsJob, extractor: TrigramExtractor): DiffPostingsRun {
  const pairs = commitPairs(job, extractor);
  pairs.sort();
  const keys: number[] = [];
  const ends: number[] = [];
  const bytes = new Uint8Array(pairs.length * 5);
  let pos = 0;
  let key = -1;
  let previous = -1;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!;
    const pairKey = Math.floor(pair / LOCAL_BITS);
    const ordinal = job.ordinals[pair - pairKey * LOCAL_BITS]!;
    if (pairKey !== key) {
      if (key >= 0) ends.push(pos);
      keys.push(pairKey);
      key = pairKey;
      previous = -1;
    }
    pos = writeGap(bytes, pos, ordinal, previous);
    previous = ordinal;
  }
  if (key >= 0) ends.push(pos);
  return { keys: Uint32Array.from(keys), ends: Uint32Array.from(ends), bytes: bytes.slice(0, pos) };
}

/** (key, commit) pairs as key * 2^26 + commit, one per distinct trigram of each commit's side. */
function commitPairs(job: DiffPostingsJob, extractor: TrigramExtractor): Float64Array {
  let pairs = new Float64Array(1024);
  let count = 0;
  let scratch = new Uint32Array(1024);
  let first = 0;
  job.commitEnds.forEach((end, commit) => {
    for (const side of [ADDED_LINE, REMOVED_LINE] as const) {
      const ranges: number[] = [];
      let room = 0;
      for (let line = first; line < end; line++) {
        if (job.flags[line] !== side) continue;
        const start = line === 0 ? 0 : job.ends[line - 1]!;
        ranges.push(start, job.ends[line]!);
        room += maxTrigrams(job.ends[line]! - start);
      }
      if (room === 0) continue;
      if (scratch.length < room) scratch = new Uint32Array(Math.max(room, scratch.length * 2));
      const n = extractor.extractRanges(job.text, ranges, scratch, 0);
      if (pairs.length < count + n) {
        const grown = new Float64Array(Math.max(count + n, pairs.length * 2));
        grown.set(pairs.subarray(0, count));
        pairs = grown;
      }
      for (let i = 0; i < n; i++) pairs[count++] = postingKey(scratch[i]!, side) * LOCAL_BITS + commit;
    }
    first = end;
  });
  return pairs.subarray(0, count);
}
