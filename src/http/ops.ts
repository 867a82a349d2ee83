/**
 * The operator's routes: `GET /healthz` (200 `ok` when every dependency answers) and
 * `GET /metrics` (Prometheus text). What "healthy" means is supplied by the composition root.
 */
import type { Metrics, MetricsGauges } from './metrics.js';
import type { Route } from './routes.js';

export interface OpsDeps {
  readonly metrics: Metrics;
  /** Names of the parts that are down; empty when healthy. */
  readonly problems: () => readonly string[];
  readonly gauges: () => MetricsGauges;
}

export function opsRoutes(deps: OpsDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      handler(_request, reply) {
        const problems = deps.problems();
        if (problems.length === 0) reply.text(200, 'ok');
        else reply.text(503, `unavailable: ${problems.join(', ')}`);
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      handler(_request, reply) {
        reply.send(200, deps.metrics.render(deps.gauges()), { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
      },
    },
  ];
}
