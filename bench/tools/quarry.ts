/**
 * Quarry as a contender: index builds and one-shot searches through the `quarry` CLI (separate
 * processes, as a user runs them), warm searches through an engine opened once in this process.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import type { SearchResponse } from '../../src/model/result.js';
import { openStore } from '../../src/store/open.js';
import { getSiteConfig, updateSiteConfig } from '../../src/store/site-config.js';
import { QUARRY_BIN } from '../paths.js';
import type { BenchQuery } from '../queries.js';
import { count, timed, type Counted, type TimedRun } from './process.js';
import { rowKey, type RowSet } from './rows.js';

export const QUARRY_THREADS = 2;

/** The Quarry query for `q`: every content match (`count:all`), in files only. */
export function quarryQuery(q: BenchQuery): string {
  const parts = ['type:file', 'count:all'];
  if (q.caseSensitive) parts.push('case:yes');
  parts.push(q.literal ? 'patterntype:literal' : 'patterntype:regexp', q.pattern);
  return parts.join(' ');
}

/**
 * A load generator is one caller far past any per-minute budget: lifts that budget in the site
 * configuration of `dataDir` (the per-caller concurrency limit and its queue stay in force).
 */
export async function liftRateLimit(dataDir: string): Promise<void> {
  const store = openStore(dataDir);
  try {
    updateSiteConfig(store, getSiteConfig(store).id, '{"rateLimits.requestsPerMinute": 0}');
  } finally {
    await store.close();
  }
}

export interface QuarryIndexRun {
  readonly add: TimedRun;
  readonly index: TimedRun;
}

/** `repos add` then `index --no-fetch`, each a process under /usr/bin/time, into `dataDir` (expected empty). */
/**
 * The text index only (QUARRY_SYMBOLS=0): the peers it is compared with build no symbol tables;
 * bench/symbols-index.bench.ts measures what symbols add.
 */
export async function buildQuarryIndex(repoName: string, gitDir: string, dataDir: string): Promise<QuarryIndexRun> {
  const env = { ...process.env, QUARRY_SYMBOLS: '0' };
  const add = await timed(process.execPath, [QUARRY_BIN, 'repos', 'add', repoName, gitDir, '--data', dataDir], { env });
  const index = await timed(process.execPath, [QUARRY_BIN, 'index', '--no-fetch', '--threads', String(QUARRY_THREADS), '--data', dataDir, repoName], { env });
  return { add, index };
}

export interface QuarryIndexSize {
  /** Trigram postings and document metadata: every segment's meta.mdb. */
  readonly metaBytes: number;
  /** Stored file content: every segment's content.mdb. */
  readonly contentBytes: number;
}

/** Allocated bytes (blocks × 512), not apparent sizes: LMDB files can be sparse. */
export function quarryIndexSize(dataDir: string): QuarryIndexSize {
  const segments = join(dataDir, 'index', 'segments');
  let metaBytes = 0;
  let contentBytes = 0;
  for (const segment of readdirSync(segments)) {
    metaBytes += statSync(join(segments, segment, 'meta.mdb')).blocks * 512;
    contentBytes += statSync(join(segments, segment, 'content.mdb')).blocks * 512;
  }
  return { metaBytes, contentBytes };
}

export interface QuarryInProcess {
  search(q: BenchQuery): Promise<SearchResponse>;
  /** Paths the index skipped (binary or too large), from the repository's manifest. */
  skippedPaths(repoName: string): Map<string, string>;
  close(): Promise<void>;
}

export function openQuarry(dataDir: string): QuarryInProcess {
  const engine: Services = createServices(loadConfig({ dataDir, threads: QUARRY_THREADS }));
  return {
    search: (q) => engine.search.search({ query: quarryQuery(q) }),
    skippedPaths(repoName) {
      const manifest = engine.catalog.get(repoName);
      if (!manifest) throw new Error(`Quarry has no index for ${repoName}`);
      return new Map(manifest.skipped.map((s) => [s.path, s.reason]));
    },
    close: () => engine.close(),
  };
}

/** Rows of a complete response; a truncated one, or a file match without lines, is an error. */
export function quarryRows(response: SearchResponse): RowSet {
  if (response.limitHit || response.skipped.length > 0) {
    throw new Error(`Quarry returned a partial result for ${response.query}: ${JSON.stringify({ limitHit: response.limitHit, skipped: response.skipped })}`);
  }
  const rows: RowSet = new Set();
  for (const match of response.matches) {
    if (match.type !== 'content') throw new Error(`Quarry returned a ${match.type} match for ${response.query}`);
    if (match.lineMatches.length === 0) throw new Error(`Quarry returned ${match.path} with no line matches for ${response.query}`);
    for (const line of match.lineMatches) rows.add(rowKey(match.path, line.lineNumber + 1));
  }
  return rows;
}

/** One-shot search: a fresh `quarry search --json` process, its output read through a pipe and counted. */
export function quarryOnce(q: BenchQuery, dataDir: string): Promise<Counted> {
  return count(process.execPath, [QUARRY_BIN, 'search', '--json', '--threads', String(QUARRY_THREADS), '--data', dataDir, '--', quarryQuery(q)]);
}
