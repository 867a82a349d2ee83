/**
 * Gathers shard results for one search: converts them to FileMatch, merges a file found by two
 * basic queries, counts matches against the limit and raises the shared stop flag when reached.
 * For a streamed search it also tells the shard tasks once its first matches are out, until when
 * each returns at its first match (FIRST_DELIVERED).
 */
import type { FileMatch, SearchMatch } from '../model/result.js';
import { addStats, type SearchStats } from '../model/stats.js';
import type { ShardSearchResult } from '../pool/messages.js';
import { languageOfPath } from '../query/languages.js';
import { unpackLines } from '../shard/packed-lines.js';
import { FIRST_DELIVERED, STOP } from '../shard/stop-flags.js';
import { mergeSymbols } from './symbol-results.js';

export interface RepoContext {
  readonly repository: string;
  readonly repositoryID: number;
  readonly commit: string;
  readonly branches: readonly string[];
}

export class Collector {
  /** Shared with the shard tasks: STOP, and FIRST_DELIVERED (set from the start when nobody streams the matches). */
  readonly stop = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  readonly files = new Map<string, FileMatch>();
  /** Repositories with a shard that failed (not timed out), for the notice that says so. */
  readonly failedRepos = new Set<string>();
  matchCount = 0;
  limitHit = false;
  timedOut = false;

  constructor(
    readonly limit: number,
    readonly stats: SearchStats,
    private readonly onMatches?: (matches: readonly SearchMatch[]) => void,
  ) {
    if (!onMatches) this.stop[FIRST_DELIVERED] = 1;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.matchCount);
  }

  add(repo: RepoContext, result: ShardSearchResult): void {
    addStats(this.stats, result.stats);
    this.limitHit ||= result.limitHit;
    this.timedOut ||= result.timedOut;
    const fresh: FileMatch[] = [];
    for (const f of result.files) {
      const key = `${repo.repositoryID}\0${repo.commit}\0${f.path}`;
      const lineMatches = unpackLines(f.lines);
      const match: FileMatch = {
        type: lineMatches.length > 0 ? 'content' : f.symbols?.length ? 'symbol' : 'path',
        ...repo,
        path: f.path,
        language: languageOfPath(f.path),
        lineMatches,
        pathMatches: f.pathMatches,
        matchCount: f.matchCount,
        score: f.score,
        ...(f.symbols ? { symbols: f.symbols } : {}),
      };
      const previous = this.files.get(key);
      const merged = previous ? mergeFileMatches(previous, match) : match;
      this.files.set(key, merged);
      this.matchCount += merged.matchCount - (previous?.matchCount ?? 0);
      fresh.push(merged);
    }
    if (this.matchCount >= this.limit) {
      this.limitHit = true;
      Atomics.store(this.stop, STOP, 1);
    }
    if (fresh.length > 0) {
      Atomics.store(this.stop, FIRST_DELIVERED, 1);
      this.onMatches?.(fresh);
    }
  }

  fail(timeout: boolean, repository: string): void {
    if (timeout) {
      this.stats.shardsTimedOut++;
    } else {
      this.stats.shardsFailed++;
      this.failedRepos.add(repository);
    }
  }
}

function mergeFileMatches(a: FileMatch, b: FileMatch): FileMatch {
  const lines = new Map(a.lineMatches.map((l) => [l.lineNumber, l]));
  for (const l of b.lineMatches) {
    const prior = lines.get(l.lineNumber);
    lines.set(l.lineNumber, prior ? { ...prior, offsetAndLengths: [...prior.offsetAndLengths, ...l.offsetAndLengths].sort((x, y) => x[0] - y[0]) } : l);
  }
  const lineMatches = [...lines.values()].sort((x, y) => x.lineNumber - y.lineNumber);
  const symbols = mergeSymbols(a.symbols, b.symbols);
  return {
    ...a,
    type: lineMatches.length > 0 ? 'content' : symbols?.length ? 'symbol' : 'path',
    lineMatches,
    pathMatches: [...a.pathMatches, ...b.pathMatches],
    matchCount: lineMatches.length || symbols?.length || 1,
    score: Math.max(a.score, b.score),
    ...(symbols ? { symbols } : {}),
  };
}
