/**
 * Wires the operator's door (`/healthz`, `/metrics`): health reads each environment at most once a second,
 * gauges come from the pool, the catalog and the index runs' progress files. Who may scrape is decided at the edge (edge.ts).
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { IndexPhaseGauge, IndexTotals, LoopDelayGauge, MemoryGauges, Metrics } from '../http/metrics.js';
import type { PoolMemory } from '../pool/pool.js';
import { INDEX_PHASES, readRunningProgress, type RunProgress } from '../indexer/index-progress.js';
import type { Authentication } from '../auth/principal.js';
import { opsRoutes } from '../http/ops.js';
import type { HttpRequest } from '../http/request.js';
import type { Route } from '../http/routes.js';
import type { EdgeRefusal } from '../http/server.js';
import type { Catalog } from '../index/lmdb/catalog.js';
import type { Services } from '../services.js';

export interface OpsDoorDeps {
  readonly metrics: Metrics;
  readonly authorizeScrape: (request: HttpRequest<Authentication>) => EdgeRefusal | null;
  /** True once shutdown began: health then reports the pool going away. */
  readonly stopping: () => boolean;
  readonly requestsInFlight: () => number;
}

export function createServerOps(services: Pick<Services, 'store' | 'catalog' | 'pool' | 'config'>, deps: OpsDoorDeps): Route<Authentication>[] {
  const { store, catalog, pool } = services;
  const startedAt = Date.now();
  // One read of each environment, and a success trusted for a moment: probes come many times a
  // second under load, and listing the catalog would decode every manifest. A shared store that
  // drops its connection says so at once (store.root.available); a failure is never reused.
  const storeProblem = recentProbe('store', () => store.meta.get('health'), () => store.root.available);
  const catalogProblem = recentProbe('catalog', () => catalog.get(''));
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  return opsRoutes({
    metrics: deps.metrics,
    authorizeScrape: deps.authorizeScrape,
    problems: () => (deps.stopping() ? ['pool'] : [...storeProblem(), ...catalogProblem()]),
    gauges: () => ({
      memory: memoryGauges(pool.memory()),
      loopDelay: loopDelayGauge(loopDelay),
      poolQueueDepth: pool.queueSize, poolThreads: pool.threads, requestsInFlight: deps.requestsInFlight(),
      indexes: indexTotals(catalog), indexPhases: indexPhaseGauges(readRunningProgress(services.config.dataDir)), uptimeSeconds: (Date.now() - startedAt) / 1000,
    }),
  });
}

/** The loop delay histogram's sampling period: its own timer costs a wake-up this often. */
const LOOP_DELAY_RESOLUTION_MS = 10;
const NS_PER_SECOND = 1e9;

/** Since the previous scrape: the histogram restarts once read. */
function loopDelayGauge(histogram: IntervalHistogram): LoopDelayGauge {
  // Nothing recorded yet reads as 0, not as the histogram's sentinel values.
  const seconds = (ns: number): number => (histogram.count === 0 || !Number.isFinite(ns) ? 0 : ns / NS_PER_SECOND);
  const gauge = { p50Seconds: seconds(histogram.percentile(50)), p99Seconds: seconds(histogram.percentile(99)), maxSeconds: seconds(histogram.max) };
  histogram.reset();
  return gauge;
}

function memoryGauges(engine: PoolMemory): MemoryGauges {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  const lanes = [{ pool: 'engine', lane: 'main', ...engine.main }, ...(engine.side === null ? [] : [{ pool: 'engine', lane: 'side', ...engine.side }])];
  return { residentBytes: rss, mainHeapUsedBytes: heapUsed, mainHeapTotalBytes: heapTotal, mainExternalBytes: external, lanes };
}

function indexTotals(catalog: Catalog): IndexTotals {
  const manifests = catalog.list();
  return {
    repositories: manifests.length, files: manifests.reduce((n, m) => n + m.files, 0), bytes: manifests.reduce((n, m) => n + m.bytes, 0),
    symbolsPending: manifests.filter((m) => m.symbolsPending).length,
  };
}

/** Every phase always appears (a series that vanishes reads as missing data); runs in another process count too. */
function indexPhaseGauges(runs: ReadonlyMap<string, RunProgress>): IndexPhaseGauge[] {
  return INDEX_PHASES.map((phase) => {
    const under = [...runs.values()].flatMap((run) => run.phases.filter((p) => p.phase === phase && !p.finished));
    return {
      phase, runs: under.length,
      done: under.reduce((n, p) => n + p.done, 0), total: under.reduce((n, p) => n + (p.total ?? p.done), 0),
      rate: under.reduce((n, p) => n + p.rate, 0), etaSeconds: under.reduce((n, p) => Math.max(n, p.etaSeconds ?? 0), 0),
    };
  });
}

/** How long a read that succeeded vouches for its environment. */
const PROBE_TRUSTED_MS = 1000;

/** `[name]` while `available` says no or `read` throws; a read that succeeded is not repeated for PROBE_TRUSTED_MS. */
function recentProbe(name: string, read: () => unknown, available: () => boolean = () => true): () => string[] {
  let succeededAt = -Infinity;
  return () => {
    if (!available()) return [name];
    const now = performance.now();
    if (now - succeededAt < PROBE_TRUSTED_MS) return [];
    try {
      read();
      succeededAt = now;
      return [];
    } catch {
      return [name];
    }
  };
}
