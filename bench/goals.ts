/**
 * The goals a run is judged against, computed from its figures. Judging only: no formatting here
 * beyond each goal's one-line description.
 */
import type { IndexResults } from './index-build.js';
import type { QueryTimings } from './query-bench.js';

export interface Goal {
  readonly name: string;
  readonly measured: string;
  readonly target: string;
  readonly pass: boolean;
}

const GIB_IN_KIB = 1024 * 1024;

export function geomean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

export function csearchRatio(t: QueryTimings): number {
  return t.csearch.medianMs / t.quarryWarm.medianMs;
}

export function rgRatio(t: QueryTimings): number {
  return t.rg.medianMs / t.quarryWarm.medianMs;
}

export function indexGoals(r: IndexResults): Goal[] {
  const wallRatio = r.quarryIndex.wallSeconds / r.cindex.wallSeconds;
  const sizeRatio = r.quarrySize.metaBytes / r.cindexBytes;
  const peakKiB = Math.max(r.quarryAdd.peakRssKiB, r.quarryIndex.peakRssKiB);
  return [
    { name: 'index wall time vs cindex', measured: `${wallRatio.toFixed(2)}x`, target: '≤ 2x', pass: wallRatio <= 2 },
    { name: 'index size (meta, no content) vs cindex', measured: `${sizeRatio.toFixed(2)}x`, target: '≤ 1.5x', pass: sizeRatio <= 1.5 },
    { name: 'index peak RSS', measured: `${(peakKiB / GIB_IN_KIB).toFixed(2)} GiB`, target: '< 4 GiB', pass: peakKiB < 4 * GIB_IN_KIB },
  ];
}

export function queryGoals(timings: readonly QueryTimings[]): Goal[] {
  const slower = timings.filter((t) => t.quarryWarm.medianMs > t.csearch.medianMs).map((t) => t.id);
  const cs = geomean(timings.map(csearchRatio));
  const rg = geomean(timings.map(rgRatio));
  return [
    {
      name: 'every query: Quarry warm median ≤ csearch median',
      measured: slower.length === 0 ? 'all queries' : `slower on ${slower.join(', ')}`,
      target: 'all queries',
      pass: slower.length === 0,
    },
    { name: 'geomean(csearch / Quarry warm)', measured: `${cs.toFixed(2)}x`, target: '≥ 2x', pass: cs >= 2 },
    { name: 'geomean(rg / Quarry warm)', measured: `${rg.toFixed(2)}x`, target: '≥ 20x', pass: rg >= 20 },
  ];
}
