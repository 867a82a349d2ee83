/**
 * The operator's routes: `GET /healthz` (200 `ok` when every dependency answers; never limited)
 * and `GET /metrics` (Prometheus text, for whom `authorizeScrape` admits). What "healthy" means
 * and who may scrape are supplied by the composition root.
 */
import type { Metrics, MetricsGauges } from './metrics.js';
import type { HttpRequest } from './request.js';
import type { Route } from './routes.js';
import type { EdgeRefusal } from './server.js';

export interface OpsDeps<Auth> {
  readonly metrics: Metrics;
  /** Names of the parts that are down; empty when healthy. */
  readonly problems: () => readonly string[];
  readonly gauges: () => MetricsGauges;
  /** Null admits the scraper; a refusal is the answer. */
  readonly authorizeScrape: (request: HttpRequest<Auth>) => EdgeRefusal | null;
}

export function opsRoutes<Auth>(deps: OpsDeps<Auth>): Route<Auth>[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      unlimited: true,
      handler(_request, reply) {
        const problems = deps.problems();
        if (problems.length === 0) reply.text(200, 'ok');
        else reply.text(503, `unavailable: ${problems.join(', ')}`);
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      handler(request, reply) {
        const refusal = deps.authorizeScrape(request);
        if (refusal !== null) return reply.send(refusal.status, refusal.body, refusal.headers);
        reply.send(200, deps.metrics.render(deps.gauges()), { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', Vary: 'Authorization' });
      },
    },
  ];
}
