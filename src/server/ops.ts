/**
 * Wires the operator's door (`/healthz`, `/metrics`): health is one cheap read of each environment,
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
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  return opsRoutes({
    metrics: deps.metrics,
    authorizeScrape: deps.authorizeScrape,
    // One read of each environment: a health check must cost nothing, and listing the catalog decodes every manifest.
    problems: () => (deps.stopping() ? ['pool'] : [...probe('store', () => storeReachable(store)), ...probe('catalog', () => catalog.get(''))]),
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

/** A shared database that cannot be reached (PostgreSQL reconnecting) makes the store unhealthy. */
function storeReachable(store: Services['store']): void {
  if (!store.root.available) throw new Error('store unavailable');
  store.meta.get('health');
}

function probe(name: string, check: () => unknown): string[] {
  try {
    check();
    return [];
  } catch {
    return [name];
  }
}
