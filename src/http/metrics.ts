/**
 * Prometheus text exposition: request counts by route template and status, a latency histogram,
 * labelled counters other layers increment, and gauges read at scrape time (pool, index totals,
 * uptime). Labels come from bounded sets only: no repository name, user or raw path appears here.
 */

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Totals over every indexed repository: per-repository figures would name restricted ones. */
export interface IndexTotals {
  readonly repositories: number;
  readonly files: number;
  readonly bytes: number;
}

/** Read when /metrics is scraped. */
export interface MetricsGauges {
  readonly poolQueueDepth: number;
  readonly poolThreads: number;
  readonly requestsInFlight: number;
  readonly indexes: IndexTotals;
  readonly uptimeSeconds: number;
}

export interface LabelledCounter {
  inc(label: string): void;
}

export interface Metrics {
  recordRequest(route: string, status: number, seconds: number): void;
  /** A counter named `name` with one label `labelName`; registered once, shown from then on. */
  counter(name: string, help: string, labelName: string): LabelledCounter;
  render(gauges: MetricsGauges): string;
}

export function createMetrics(): Metrics {
  const requests = new Map<string, number>();
  const buckets = new Map<string, number[]>();
  const sums = new Map<string, number>();
  const counters = new Map<string, { help: string; labelName: string; values: Map<string, number> }>();

  return {
    recordRequest(route, status, seconds) {
      const key = `${route}\0${status}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const counts = buckets.get(route) ?? new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
      LATENCY_BUCKETS.forEach((le, i) => (counts[i]! += seconds <= le ? 1 : 0));
      counts[LATENCY_BUCKETS.length]! += 1;
      buckets.set(route, counts);
      sums.set(route, (sums.get(route) ?? 0) + seconds);
    },
    counter(name, help, labelName) {
      const entry = counters.get(name) ?? { help, labelName, values: new Map<string, number>() };
      counters.set(name, entry);
      return { inc: (label) => void entry.values.set(label, (entry.values.get(label) ?? 0) + 1) };
    },
    render(gauges) {
      const out: string[] = [];
      out.push(...family('quarry_http_requests_total', 'counter', 'HTTP requests answered, by route and status (499: client went away).'));
      for (const [key, n] of requests) {
        const [route, status] = key.split('\0');
        out.push(`quarry_http_requests_total{route=${label(route!)},status=${label(status!)}} ${n}`);
      }
      out.push(...family('quarry_http_request_duration_seconds', 'histogram', 'HTTP request latency, by route.'));
      for (const [route, counts] of buckets) {
        LATENCY_BUCKETS.forEach((le, i) => out.push(`quarry_http_request_duration_seconds_bucket{route=${label(route)},le="${le}"} ${counts[i]}`));
        out.push(`quarry_http_request_duration_seconds_bucket{route=${label(route)},le="+Inf"} ${counts[LATENCY_BUCKETS.length]}`);
        out.push(`quarry_http_request_duration_seconds_sum{route=${label(route)}} ${sums.get(route)}`);
        out.push(`quarry_http_request_duration_seconds_count{route=${label(route)}} ${counts[LATENCY_BUCKETS.length]}`);
      }
      for (const [name, { help, labelName, values }] of counters) {
        out.push(...family(name, 'counter', help));
        for (const [value, n] of values) out.push(`${name}{${labelName}=${label(value)}} ${n}`);
      }
      out.push(...gauge('quarry_http_requests_in_flight', 'HTTP requests being answered.', gauges.requestsInFlight));
      out.push(...gauge('quarry_pool_queue_depth', 'Worker pool tasks waiting for a thread.', gauges.poolQueueDepth));
      out.push(...gauge('quarry_pool_threads', 'Worker pool threads.', gauges.poolThreads));
      out.push(...gauge('quarry_index_repositories', 'Indexed repositories.', gauges.indexes.repositories));
      out.push(...gauge('quarry_index_files', 'Indexed live files, all repositories together.', gauges.indexes.files));
      out.push(...gauge('quarry_index_bytes', 'Indexed live bytes, all repositories together.', gauges.indexes.bytes));
      out.push(...gauge('quarry_uptime_seconds', 'Seconds since the server started.', gauges.uptimeSeconds));
      return `${out.join('\n')}\n`;
    },
  };
}

function family(name: string, type: string, help: string): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
}

function gauge(name: string, help: string, value: number): string[] {
  return [...family(name, 'gauge', help), `${name} ${value}`];
}

function label(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
