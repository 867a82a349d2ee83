/**
 * The mixed load's verdicts and its Markdown summary: per-operation tables per phase, the hostile
 * caller's outcomes, the server's counters, RSS, and pass/FAIL for each goal of issue 12.
 */
import type { CpuShare } from './cpu.js';
import type { OperationStats } from './latency.js';
import type { RssSample } from './rss.js';

export const P99_GOAL_RATIO = 1.2;
export const RSS_GOAL_RATIO = 1.2;
/** RSS is compared as medians over windows this long: one sample can land on either side of a GC. */
export const RSS_WINDOW_SECONDS = 30;

export interface MixedLoadRun {
  readonly header: readonly string[];
  readonly bare: OperationStats;
  /** Seconds: warm-up, the ordinary load alone before and after the hostile phase (baseline = before + after), hostile. */
  readonly phases: { readonly warmup: number; readonly baseline: number; readonly before: number; readonly hostile: number; readonly after: number };
  /** The ordinary load alone: before and after the hostile phase, pooled. */
  readonly baseline: readonly OperationStats[];
  readonly before: readonly OperationStats[];
  readonly after: readonly OperationStats[];
  readonly hostileOrdinary: readonly OperationStats[];
  readonly hostile: readonly OperationStats[];
  /** The second phase ran without the hostile caller. */
  readonly control: boolean;
  readonly unexpectedHostile: number;
  readonly ordinaryUnexpected: number;
  readonly serverErrors: number;
  readonly serverCounters: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly cpu: { readonly baseline: CpuShare; readonly hostile: CpuShare };
  /** baselineEnd: where the hostile phase began; hostileEnd: where it ended. */
  readonly rss: { readonly warmupEnd: RssSample; readonly baselineEnd: RssSample; readonly hostileEnd: RssSample; readonly end: RssSample; readonly samples: readonly RssSample[] };
  readonly examples: readonly string[];
  readonly ordinaryThrottled: number;
  readonly hostileThrottled: number;
  readonly server: { readonly aliveAtEnd: boolean; readonly exitCode: number | null; readonly logTail: string };
}

const ms = (n: number): string => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));
const mib = (kib: number): string => (kib / 1024).toFixed(0);
const verdict = (ok: boolean): string => (ok ? 'pass' : '**FAIL**');
const errorsOf = (s: OperationStats): number => s.count - (s.outcomes['ok'] ?? 0);
const outcomes = (s: OperationStats): string => Object.entries(s.outcomes).map(([k, n]) => `${k} ${n}`).join(', ');

function statsRows(phase: string, stats: readonly OperationStats[]): string[] {
  return stats.map((s) => `| ${s.operation} | ${phase} | ${s.count} | ${s.perSecond.toFixed(1)} | ${errorsOf(s)} | ${ms(s.p50Ms)} | ${ms(s.p90Ms)} | ${ms(s.p99Ms)} | ${ms(s.maxMs)} |`);
}

export interface P99Comparison {
  readonly operation: string;
  readonly baselineP99: number;
  /** The first half of the baseline alone, as the comparison was made before it had two halves. */
  readonly beforeP99: number;
  readonly afterP99: number;
  readonly hostileP99: number;
  readonly ratio: number;
  readonly throughputRatio: number;
}

export function compareP99(run: MixedLoadRun): P99Comparison[] {
  return run.baseline.map((base) => {
    const under = run.hostileOrdinary.find((s) => s.operation === base.operation);
    return {
      operation: base.operation,
      baselineP99: base.p99Ms,
      beforeP99: run.before.find((s) => s.operation === base.operation)?.p99Ms ?? Number.NaN,
      afterP99: run.after.find((s) => s.operation === base.operation)?.p99Ms ?? Number.NaN,
      hostileP99: under?.p99Ms ?? Number.NaN,
      ratio: (under?.p99Ms ?? Number.NaN) / base.p99Ms,
      throughputRatio: (under?.perSecond ?? 0) / base.perSecond,
    };
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
};

export interface RssVerdict {
  /** Median server RSS over the last window before the hostile phase (warm-up and the baseline's first half). */
  readonly warmedKiB: number;
  /** Median server RSS over the run's last window. */
  readonly endKiB: number;
  readonly maxKiB: number;
  readonly maxChildrenKiB: number;
  /** Least-squares slope of server RSS over the hostile phase, MiB per minute. */
  readonly hostileSlopeMiBPerMinute: number;
}

function windowMedian(samples: readonly RssSample[], endSeconds: number): number {
  return median(samples.filter((s) => s.atSeconds > endSeconds - RSS_WINDOW_SECONDS && s.atSeconds <= endSeconds).map((s) => s.serverKiB));
}

function slopeMiBPerMinute(samples: readonly RssSample[]): number {
  const n = samples.length;
  const meanT = samples.reduce((a, s) => a + s.atSeconds, 0) / n;
  const meanR = samples.reduce((a, s) => a + s.serverKiB, 0) / n;
  const cov = samples.reduce((a, s) => a + (s.atSeconds - meanT) * (s.serverKiB - meanR), 0);
  const varT = samples.reduce((a, s) => a + (s.atSeconds - meanT) ** 2, 0);
  return ((cov / varT) * 60) / 1024;
}

export function rssVerdict(run: MixedLoadRun): RssVerdict {
  const { samples, baselineEnd, end } = run.rss;
  return {
    warmedKiB: windowMedian(samples, baselineEnd.atSeconds),
    endKiB: windowMedian(samples, end.atSeconds),
    maxKiB: Math.max(...samples.map((s) => s.serverKiB)),
    maxChildrenKiB: Math.max(...samples.map((s) => s.childrenKiB)),
    hostileSlopeMiBPerMinute: slopeMiBPerMinute(samples.filter((s) => s.atSeconds >= baselineEnd.atSeconds && s.atSeconds <= run.rss.hostileEnd.atSeconds)),
  };
}

export interface Goals {
  /** Up when the load ended, and exit code 0 after SIGTERM. */
  readonly serverSurvived: boolean;
  readonly noUnexpectedErrors: boolean;
  readonly rssFlat: boolean;
  readonly p99Held: boolean;
  /** The second half alone is within the p99 bound of the first: nothing the hostile caller did lingers (or drifts) past it. */
  readonly recovered: boolean;
  /** null in a control run, which has no hostile caller to throttle. */
  readonly hostileThrottledOnly: boolean | null;
}

export function goals(run: MixedLoadRun): Goals {
  return {
    serverSurvived: run.server.aliveAtEnd && run.server.exitCode === 0,
    noUnexpectedErrors: run.ordinaryUnexpected === 0 && run.unexpectedHostile === 0 && run.serverErrors === 0,
    rssFlat: rssVerdict(run).endKiB <= RSS_GOAL_RATIO * rssVerdict(run).warmedKiB,
    p99Held: compareP99(run).every((c) => c.ratio <= P99_GOAL_RATIO),
    recovered: compareP99(run).every((c) => c.afterP99 <= P99_GOAL_RATIO * c.beforeP99),
    hostileThrottledOnly: run.control ? null : run.hostileThrottled > 0 && run.ordinaryThrottled === 0,
  };
}

export function renderSummary(run: MixedLoadRun): string {
  const met = goals(run);
  const comparisons = compareP99(run);
  const rss = rssVerdict(run);
  const rssRow = (label: string, s: RssSample): string => `| ${label} | ${s.atSeconds.toFixed(0)} | ${mib(s.serverKiB)} | ${mib(s.childrenKiB)} (${s.children}) |`;
  return [
    ...run.header,
    '',
    '## Goals',
    '',
    '| goal | figure | verdict |',
    '| --- | --- | --- |',
    `| the server stays up, and exits 0 on SIGTERM | ${run.server.aliveAtEnd ? 'up at the end' : '**down before the end**'}; exit code ${run.server.exitCode} | ${verdict(met.serverSurvived)} |`,
    `| zero unexpected errors | ordinary ${run.ordinaryUnexpected}, hostile 5xx/dropped/timeout ${run.unexpectedHostile}, server-side 5xx ${run.serverErrors} | ${verdict(met.noUnexpectedErrors)} |`,
    `| RSS flat after warm-up: server process, median of the last ${RSS_WINDOW_SECONDS} s, at the end ≤ ${RSS_GOAL_RATIO} × before the hostile phase | ${mib(rss.warmedKiB)} → ${mib(rss.endKiB)} MiB (max ${mib(rss.maxKiB)}; ${rss.hostileSlopeMiBPerMinute.toFixed(1)} MiB/min over the hostile phase) | ${verdict(met.rssFlat)} |`,
    `| hostile phase p99 ≤ ${P99_GOAL_RATIO} × baseline p99 (alone before and after it), every ordinary operation | worst ${Math.max(...comparisons.map((c) => c.ratio)).toFixed(2)}× | ${verdict(met.p99Held)} |`,
    `| recovery: alone after the hostile phase, p99 ≤ ${P99_GOAL_RATIO} × alone before it, every ordinary operation (fails on a lingering effect, or on a machine drifting too much to measure by) | worst ${Math.max(...comparisons.map((c) => c.afterP99 / c.beforeP99)).toFixed(2)}× | ${verdict(met.recovered)} |`,
    `| hostile caller throttled, ordinary callers never | hostile 429s ${run.hostileThrottled}, ordinary 429s ${run.ordinaryThrottled} | ${met.hostileThrottledOnly === null ? 'n/a (control run)' : verdict(met.hostileThrottledOnly)} |`,
    '',
    '## Generator ceiling: bare uWebSockets.js constant reply, same client and connections',
    '',
    '| target | requests | req/s | errors | p50 ms | p90 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${run.bare.operation} | ${run.bare.count} | ${run.bare.perSecond.toFixed(0)} | ${errorsOf(run.bare)} | ${ms(run.bare.p50Ms)} | ${ms(run.bare.p90Ms)} | ${ms(run.bare.p99Ms)} | ${ms(run.bare.maxMs)} |`,
    '',
    `## Ordinary callers (${run.phases.before} s alone, ${run.phases.hostile} s beside the hostile caller, ${run.phases.after} s alone again; the baseline is both times alone; the ${run.phases.warmup} s warm-up is not counted)`,
    '',
    '| operation | phase | requests | req/s | errors | p50 ms | p90 ms | p99 ms | max ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...statsRows('alone before', run.before),
    ...statsRows('hostile', run.hostileOrdinary),
    ...statsRows('alone after', run.after),
    ...statsRows('baseline (both)', run.baseline),
    '',
    '| operation | baseline p99 ms | hostile-phase p99 ms | p99 ratio | throughput ratio | p99 goal | p99 ratio to the first half alone |',
    '| --- | ---: | ---: | ---: | ---: | --- | ---: |',
    ...comparisons.map((c) => `| ${c.operation} | ${ms(c.baselineP99)} | ${ms(c.hostileP99)} | ${c.ratio.toFixed(2)} | ${c.throughputRatio.toFixed(2)} | ${verdict(c.ratio <= P99_GOAL_RATIO)} | ${(c.hostileP99 / c.beforeP99).toFixed(2)} |`),
    '',
    'CPU: the baseline row is the first half alone.',
    '',
    '| phase | server CPU, cores (threads and child processes) | of which the main thread | load generator CPU, cores (both callers) |',
    '| --- | ---: | ---: | ---: |',
    ...(['baseline', 'hostile'] as const).map((p) => `| ${p} | ${run.cpu[p].serverCores.toFixed(2)} | ${run.cpu[p].mainThreadCores.toFixed(2)} | ${run.cpu[p].generatorCores.toFixed(2)} |`),
    '',
    ...cpuByThreadTable(run.cpu),
    '',
    '## The hostile caller (its answers by kind)',
    '',
    '| request | sent | outcomes | p50 ms | p99 ms | max ms |',
    '| --- | ---: | --- | ---: | ---: | ---: |',
    ...(run.control ? ['| none: control run | | | | | |'] : run.hostile.map((s) => `| ${s.operation} | ${s.count} | ${outcomes(s)} | ${ms(s.p50Ms)} | ${ms(s.p99Ms)} | ${ms(s.maxMs)} |`)),
    '',
    '## The server\'s counters per phase (/metrics deltas)',
    '',
    '| phase | series | count |',
    '| --- | --- | ---: |',
    ...Object.entries(run.serverCounters).flatMap(([phase, delta]) => Object.entries(delta).map(([series, n]) => `| ${phase} | \`${series}\` | ${n} |`)),
    '',
    '## Resident memory (server process with its threads; child processes apart)',
    '',
    '| moment | at s | server MiB | children MiB (count) |',
    '| --- | ---: | ---: | ---: |',
    rssRow('warm-up end', run.rss.warmupEnd),
    rssRow('hostile phase start', run.rss.baselineEnd),
    rssRow('hostile phase end', run.rss.hostileEnd),
    rssRow('end', run.rss.end),
    `| max over ${run.rss.samples.length} samples | | ${mib(rss.maxKiB)} | ${mib(rss.maxChildrenKiB)} |`,
    '',
    ...(run.examples.length > 0 ? ['## First unexpected answers', '', ...run.examples.map((e) => `- ${e}`), ''] : []),
    ...(met.serverSurvived ? [] : ['## The server\'s last log lines', '', '```', run.server.logTail.trim(), '```', '']),
  ].join('\n');
}

/** The server's cores by thread name per phase; names whose threads used under 0.005 cores in both phases are left out. */
function cpuByThreadTable(cpu: MixedLoadRun['cpu']): string[] {
  const names = [...new Set([...Object.keys(cpu.baseline.serverCoresBy), ...Object.keys(cpu.hostile.serverCoresBy)])]
    .filter((name) => Math.max(cpu.baseline.serverCoresBy[name] ?? 0, cpu.hostile.serverCoresBy[name] ?? 0) >= 0.005)
    .sort((a, b) => (cpu.hostile.serverCoresBy[b] ?? 0) - (cpu.hostile.serverCoresBy[a] ?? 0));
  return [
    '| server threads by name, cores | baseline | hostile | change |',
    '| --- | ---: | ---: | ---: |',
    ...names.map((name) => {
      const [before, after] = [cpu.baseline.serverCoresBy[name] ?? 0, cpu.hostile.serverCoresBy[name] ?? 0];
      return `| ${name} | ${before.toFixed(2)} | ${after.toFixed(2)} | ${(after - before >= 0 ? '+' : '')}${(after - before).toFixed(2)} |`;
    }),
  ];
}
