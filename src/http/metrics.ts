/**
 * Prometheus text exposition: request counts by route template and status, a latency histogram,
 * labelled counters other layers increment, and gauges read at scrape time (pool, index totals,
 * index phases under way, uptime). Labels come from bounded sets only: no repository name, user or raw path appears here.
 */

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Totals over every indexed repository: per-repository figures would name restricted ones. */
export interface IndexTotals {
  readonly repositories: number;
  readonly files: number;
  readonly bytes: number;
  /** Repositories whose text index serves while their symbol tables are not extracted yet. */
  readonly symbolsPending: number;
}

/** One index phase (text, symbols, history) over the index runs under way, summed. */
export interface IndexPhaseGauge {
  readonly phase: string;
  readonly runs: number;
  readonly done: number;
  readonly total: number;
  /** Units (files, commits) per second. */
  readonly rate: number;
  /** The longest ETA of the runs in this phase; 0 when none is known. */
  readonly etaSeconds: number;
}

/** Memory of one lane of worker threads (a pool's main threads, or its side lane), summed over its live threads. */
export interface LaneMemoryGauge {
  readonly pool: string;
  readonly lane: string;
  readonly threads: number;
  readonly threadsStopped: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly externalBytes: number;
}

/** The process as a whole (its main thread's heap apart), and each lane of worker threads. */
export interface MemoryGauges {
  readonly residentBytes: number;
  readonly mainHeapUsedBytes: number;
  readonly mainHeapTotalBytes: number;
  /** Memory outside the V8 heaps held by the main thread's objects (process.memoryUsage().external). */
  readonly mainExternalBytes: number;
  readonly lanes: readonly LaneMemoryGauge[];
}

/** How late the main thread's event loop ran its timers since the previous scrape: work queued behind work. */
export interface LoopDelayGauge {
  readonly p50Seconds: number;
  readonly p99Seconds: number;
  readonly maxSeconds: number;
}

/** Read when /metrics is scraped. */
export interface MetricsGauges {
  readonly memory: MemoryGauges;
  readonly loopDelay: LoopDelayGauge;
  readonly poolQueueDepth: number;
  readonly poolThreads: number;
  readonly requestsInFlight: number;
  readonly indexes: IndexTotals;
  readonly indexPhases: readonly IndexPhaseGauge[];
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

/** One route's figures; the histogram keeps one count per bucket, summed up when rendered. */
interface RouteFigures {
  readonly byStatus: Map<number, number>;
  readonly inBucket: Float64Array;
  total: number;
  sum: number;
}

export function createMetrics(): Metrics {
  const routes = new Map<string, RouteFigures>();
  const counters = new Map<string, { help: string; labelName: string; values: Map<string, number> }>();

  return {
    // Called once per request: no string is built and no array allocated here.
    recordRequest(route, status, seconds) {
      let figures = routes.get(route);
      if (figures === undefined) {
        figures = { byStatus: new Map(), inBucket: new Float64Array(LATENCY_BUCKETS.length), total: 0, sum: 0 };
        routes.set(route, figures);
      }
      figures.byStatus.set(status, (figures.byStatus.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
      if (bucket < LATENCY_BUCKETS.length) figures.inBucket[bucket]! += 1;
      figures.total++;
      figures.sum += seconds;
    },
    counter(name, help, labelName) {
      const entry = counters.get(name) ?? { help, labelName, values: new Map<string, number>() };
      counters.set(name, entry);
      return { inc: (label) => void entry.values.set(label, (entry.values.get(label) ?? 0) + 1) };
    },
    render(gauges) {
      const out: string[] = [];
      out.push(...family('quarry_http_requests_total', 'counter', 'HTTP requests answered, by route and status (499: client went away).'));
      for (const [route, { byStatus }] of routes) {
        for (const [status, n] of byStatus) out.push(`quarry_http_requests_total{route=${label(route)},status=${label(String(status))}} ${n}`);
      }
      out.push(...family('quarry_http_request_duration_seconds', 'histogram', 'HTTP request latency, by route.'));
      for (const [route, { inBucket, total, sum }] of routes) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => out.push(`quarry_http_request_duration_seconds_bucket{route=${label(route)},le="${le}"} ${(cumulative += inBucket[i]!)}`));
        out.push(`quarry_http_request_duration_seconds_bucket{route=${label(route)},le="+Inf"} ${total}`);
        out.push(`quarry_http_request_duration_seconds_sum{route=${label(route)}} ${sum}`);
        out.push(`quarry_http_request_duration_seconds_count{route=${label(route)}} ${total}`);
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
      out.push(...gauge('quarry_index_symbols_pending_repositories', 'Indexed repositories whose symbol tables are not extracted yet.', gauges.indexes.symbolsPending));
      const phases: [string, string, (g: IndexPhaseGauge) => number][] = [
        ['quarry_index_phase_runs', 'Index runs under way, by the phase they are in.', (g) => g.runs],
        ['quarry_index_phase_done', 'Units (files, commits) done by the index runs under way, by phase.', (g) => g.done],
        ['quarry_index_phase_total', 'Units (files, commits) to do in the index runs under way, by phase.', (g) => g.total],
        ['quarry_index_phase_rate', 'Units per second of the index runs under way, by phase.', (g) => g.rate],
        ['quarry_index_phase_eta_seconds', 'Seconds until the index runs under way finish the phase, at their rate (longest).', (g) => g.etaSeconds],
      ];
      for (const [name, help, value] of phases) {
        out.push(...family(name, 'gauge', help));
        for (const g of gauges.indexPhases) out.push(`${name}{phase=${label(g.phase)}} ${value(g)}`);
      }
      out.push(...memoryLines(gauges.memory));
      out.push(...family('quarry_main_loop_delay_seconds', 'gauge', "The main thread's event loop delay since the previous scrape, by quantile (requests wait this long behind other work)."));
      const { p50Seconds, p99Seconds, maxSeconds } = gauges.loopDelay;
      out.push(`quarry_main_loop_delay_seconds{quantile="0.5"} ${p50Seconds}`, `quarry_main_loop_delay_seconds{quantile="0.99"} ${p99Seconds}`, `quarry_main_loop_delay_seconds{quantile="1"} ${maxSeconds}`);
      out.push(...gauge('quarry_uptime_seconds', 'Seconds since the server started.', gauges.uptimeSeconds));
      return `${out.join('\n')}\n`;
    },
  };
}

/** Where resident memory goes: worker heaps by lane beside the process total tell a leak's home. */
function memoryLines(memory: MemoryGauges): string[] {
  const out = [
    ...gauge('quarry_process_resident_bytes', 'Resident memory of the server process, all threads together.', memory.residentBytes),
    ...gauge('quarry_main_heap_used_bytes', "The main thread's V8 heap in use.", memory.mainHeapUsedBytes),
    ...gauge('quarry_main_heap_total_bytes', "The main thread's V8 heap reserved.", memory.mainHeapTotalBytes),
    ...gauge('quarry_main_external_bytes', "Memory outside the V8 heap held by the main thread's objects.", memory.mainExternalBytes),
  ];
  const lanes: [string, string, string, (g: LaneMemoryGauge) => number][] = [
    ['quarry_worker_threads', 'gauge', 'Worker threads that have reported their memory, by pool and lane.', (g) => g.threads],
    ['quarry_worker_threads_stopped_total', 'counter', 'Worker threads stopped (terminated at a deadline, retired when idle), by pool and lane.', (g) => g.threadsStopped],
    ['quarry_worker_heap_used_bytes', 'gauge', "Worker threads' V8 heaps in use at their last report (after a task), by pool and lane.", (g) => g.heapUsedBytes],
    ['quarry_worker_heap_total_bytes', 'gauge', "Worker threads' V8 heaps reserved at their last report, by pool and lane.", (g) => g.heapTotalBytes],
    ['quarry_worker_external_bytes', 'gauge', "Memory outside the V8 heaps (array buffers, Hyperscan databases) held by worker threads' objects at their last report, by pool and lane.", (g) => g.externalBytes],
  ];
  for (const [name, type, help, value] of lanes) {
    out.push(...family(name, type, help));
    for (const g of memory.lanes) out.push(`${name}{pool=${label(g.pool)},lane=${label(g.lane)}} ${value(g)}`);
  }
  return out;
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
