/**
 * Where the server's memory is, from its own /metrics gauges: resident total, the main thread's
 * heap and external memory, and each worker lane's heaps and external memory, sampled on a timer
 * so a growth can be told apart by home (main heap, worker heaps, native). Read-only.
 */
import { createLoadClient } from './http-client.js';

export interface MemorySample {
  readonly atSeconds: number;
  /** Gauge series (`quarry_process_*`, `quarry_main_*`, `quarry_worker_*`) to their values in bytes or counts. */
  readonly series: Readonly<Record<string, number>>;
}

const SHOWN = /^quarry_(process_resident_bytes|main_\w+|worker_\w+|pool_queue_depth)(\{|\s)/;

export async function readMemory(origin: string, adminToken: string): Promise<Record<string, number>> {
  const client = createLoadClient(origin, 1);
  try {
    const answer = await client.send({ method: 'GET', path: '/metrics', headers: { Authorization: `token ${adminToken}` } }, 10_000);
    if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
    const series: Record<string, number> = {};
    for (const line of answer.body.toString('utf8').split('\n')) {
      const at = line.lastIndexOf(' ');
      if (SHOWN.test(line) && at > 0) series[line.slice(0, at)] = Number(line.slice(at + 1));
    }
    return series;
  } finally {
    client.close();
  }
}

export interface MemorySampler {
  readonly samples: readonly MemorySample[];
  stop(): void;
}

/** One reading every `everyMs`; a reading that fails (the server busy past 10 s) is skipped, not fatal. */
export function startMemorySampler(origin: string, adminToken: string, everyMs: number): MemorySampler {
  const started = performance.now();
  const samples: MemorySample[] = [];
  const take = (): void => {
    const atSeconds = (performance.now() - started) / 1000;
    readMemory(origin, adminToken).then((series) => samples.push({ atSeconds, series }), () => {});
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}

const MIB = 2 ** 20;

/** Markdown rows: each series at the first sample at or after each phase's start and at the end, in MiB (counts as they are). */
export function memoryTable(samples: readonly MemorySample[], marks: readonly (readonly [string, number])[]): string[] {
  if (samples.length === 0) return ['(no /metrics memory reading succeeded)'];
  const at = marks.map(([name, seconds]) => [name, samples.find((s) => s.atSeconds >= seconds) ?? samples[samples.length - 1]!] as const);
  const names = Object.keys(samples[samples.length - 1]!.series);
  const shown = (name: string, value: number | undefined): string => (value === undefined ? '–' : name.endsWith('_bytes') || name.includes('_bytes{') ? (value / MIB).toFixed(1) : String(value));
  return [
    `| series (MiB, or a count) | ${at.map(([name, s]) => `${name} (${s.atSeconds.toFixed(0)} s)`).join(' | ')} |`,
    `| --- | ${at.map(() => '---:').join(' | ')} |`,
    ...names.map((name) => `| \`${name}\` | ${at.map(([, s]) => shown(name, s.series[name])).join(' | ')} |`),
  ];
}
