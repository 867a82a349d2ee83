/**
 * Wires the operator's door (`/healthz`, `/metrics`): health is one cheap read of each environment,
 * gauges come from the pool and the catalog. Who may scrape is decided at the edge (edge.ts).
 */
import type { Metrics } from '../http/metrics.js';
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

export function createServerOps(services: Pick<Services, 'store' | 'catalog' | 'pool'>, deps: OpsDoorDeps): Route<Authentication>[] {
  const { store, catalog, pool } = services;
  const startedAt = Date.now();
  return opsRoutes({
    metrics: deps.metrics,
    authorizeScrape: deps.authorizeScrape,
    // One read of each environment: a health check must cost nothing, and listing the catalog decodes every manifest.
    problems: () => (deps.stopping() ? ['pool'] : [...probe('store', () => store.meta.get('health')), ...probe('catalog', () => catalog.get(''))]),
    gauges: () => ({
      poolQueueDepth: pool.queueSize, poolThreads: pool.threads, requestsInFlight: deps.requestsInFlight(),
      indexes: indexTotals(catalog), uptimeSeconds: (Date.now() - startedAt) / 1000,
    }),
  });
}

function indexTotals(catalog: Catalog): { repositories: number; files: number; bytes: number } {
  const manifests = catalog.list();
  return { repositories: manifests.length, files: manifests.reduce((n, m) => n + m.files, 0), bytes: manifests.reduce((n, m) => n + m.bytes, 0) };
}

function probe(name: string, check: () => unknown): string[] {
  try {
    check();
    return [];
  } catch {
    return [name];
  }
}
