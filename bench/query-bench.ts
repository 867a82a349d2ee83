/**
 * The query benchmark: first every contender answers every query once and the answers are compared,
 * then (only if all agree) each contender is timed per query. Prints progress to stderr only.
 */
import type { SearchStats } from '../src/model/stats.js';
import { compareRows, type Comparison } from './agreement.js';
import type { Corpus } from './corpus.js';
import type { BenchQuery } from './queries.js';
import { measure, type Timing } from './timing.js';
import { csearchOnce, csearchRows } from './tools/csearch.js';
import { quarryOnce, quarryQuery, quarryRows, type QuarryInProcess } from './tools/quarry.js';
import { rgOnce, rgRows } from './tools/ripgrep.js';

export interface QueryContext {
  readonly corpus: Corpus;
  readonly dataDir: string;
  readonly cindexFile: string;
  readonly quarry: QuarryInProcess;
  /** Files Quarry did not index (binary, too large), by path. */
  readonly quarrySkipped: ReadonlyMap<string, string>;
  /** Files in the csearch index. */
  readonly csearchIndexed: ReadonlySet<string>;
}

export interface QueryAgreement {
  readonly query: BenchQuery;
  readonly quarryQuery: string;
  readonly rows: { readonly quarry: number; readonly rg: number; readonly csearch: number };
  /** Quarry's file matches, and the lines its one-shot CLI printed for them (one per file plus a progress line). */
  readonly quarryFiles: number;
  readonly oneShotLines: number;
  readonly firstRunMs: { readonly quarry: number; readonly oneShot: number; readonly rg: number; readonly csearch: number };
  readonly comparisons: readonly Comparison[];
  readonly stats: SearchStats;
}

export interface QueryTimings {
  readonly id: string;
  readonly quarryWarm: Timing;
  readonly quarryOneShot: Timing;
  readonly csearch: Timing;
  readonly rg: Timing;
}

async function timedCall<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

export async function checkQuery(ctx: QueryContext, query: BenchQuery): Promise<QueryAgreement> {
  const quarry = await timedCall(() => ctx.quarry.search(query));
  const quarrySet = quarryRows(quarry.value);
  const oneShot = await timedCall(() => quarryOnce(query, ctx.dataDir));
  const rg = await rgRows(query, ctx.corpus.worktree);
  const csearch = await csearchRows(query, ctx.cindexFile, ctx.corpus.worktree);
  const quarryIndexed = (path: string): boolean => !ctx.quarrySkipped.has(path);
  const comparisons = [
    compareRows({
      contender: 'rg', restriction: 'files Quarry skipped (binary, > 1 MiB)',
      quarry: quarrySet, other: rg.rows, contenderSearched: () => true, quarrySearched: quarryIndexed,
    }),
    compareRows({
      contender: 'csearch', restriction: 'files Quarry skipped; files cindex skipped (dot files, invalid UTF-8, long lines, too many trigrams)',
      quarry: quarrySet, other: csearch.rows, contenderSearched: (path) => ctx.csearchIndexed.has(path), quarrySearched: quarryIndexed,
    }),
  ];
  return {
    query,
    quarryQuery: quarryQuery(query),
    rows: { quarry: quarrySet.size, rg: rg.rows.size, csearch: csearch.rows.size },
    quarryFiles: quarry.value.matches.length,
    oneShotLines: oneShot.value.lines,
    firstRunMs: { quarry: quarry.ms, oneShot: oneShot.ms, rg: rg.ms, csearch: csearch.ms },
    comparisons,
    stats: quarry.value.stats,
  };
}

export async function timeQuery(ctx: QueryContext, agreement: QueryAgreement): Promise<QueryTimings> {
  const { query, firstRunMs } = agreement;
  const name = (who: string): string => `${query.id} ${who}`;
  // A spawned process warms once; Quarry's engine gets a few runs to fill its caches first.
  const spawned = (who: string, run: () => Promise<unknown>, expectedMs: number): Promise<Timing> =>
    measure(name(who), run, { expectedMs, warmupIterations: 1, async: true });
  const quarryWarm = await measure(name('quarry warm'), () => ctx.quarry.search(query), {
    expectedMs: firstRunMs.quarry,
    warmupIterations: firstRunMs.quarry < 1000 ? 3 : 1,
    async: true,
  });
  const quarryOneShot = await spawned('quarry one-shot', () => quarryOnce(query, ctx.dataDir), firstRunMs.oneShot);
  const csearch = await spawned('csearch', () => csearchOnce(query, ctx.cindexFile), firstRunMs.csearch);
  const rg = await spawned('rg', () => rgOnce(query, ctx.corpus.worktree), firstRunMs.rg);
  return { id: query.id, quarryWarm, quarryOneShot, csearch, rg };
}
