/**
 * Search statistics: filled by every stage, merged across shards, shown with results
 * (CLI --stats, stream progress, benchmarks) so a slow query can be explained.
 */

export interface SearchStats {
  /** Documents the trigram stage could not rule out. */
  candidates: number;
  /** Candidates a block map ruled out before their content was read. */
  docsRuledOutByBlocks: number;
  /** Documents whose content a matcher scanned. */
  docsScanned: number;
  bytesScanned: number;
  trigramLookups: number;
  /** Engines used, e.g. ["hyperscan"] or ["hyperscan", "js"]. */
  matchers: string[];
  shardsSearched: number;
  /** Shards pruned by repo filters before any worker was involved. */
  shardsSkipped: number;
  shardsFailed: number;
  shardsTimedOut: number;
  /** Milliseconds per stage, summed over shards for shard stages. */
  parseMs: number;
  planMs: number;
  candidatesMs: number;
  verifyMs: number;
  mergeMs: number;
  totalMs: number;
}

export function emptyStats(): SearchStats {
  return {
    candidates: 0, docsRuledOutByBlocks: 0, docsScanned: 0, bytesScanned: 0, trigramLookups: 0, matchers: [],
    shardsSearched: 0, shardsSkipped: 0, shardsFailed: 0, shardsTimedOut: 0,
    parseMs: 0, planMs: 0, candidatesMs: 0, verifyMs: 0, mergeMs: 0, totalMs: 0,
  };
}

/** Adds the shard-level counters of `b` into `a`. */
export function addStats(a: SearchStats, b: SearchStats): SearchStats {
  a.candidates += b.candidates;
  a.docsRuledOutByBlocks += b.docsRuledOutByBlocks;
  a.docsScanned += b.docsScanned;
  a.bytesScanned += b.bytesScanned;
  a.trigramLookups += b.trigramLookups;
  for (const m of b.matchers) if (!a.matchers.includes(m)) a.matchers.push(m);
  a.shardsSearched += b.shardsSearched;
  a.shardsFailed += b.shardsFailed;
  a.shardsTimedOut += b.shardsTimedOut;
  a.candidatesMs += b.candidatesMs;
  a.verifyMs += b.verifyMs;
  return a;
}
