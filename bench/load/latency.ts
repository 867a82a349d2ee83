/**
 * Latency samples and outcomes per phase and operation, and their summary (count, outcomes,
 * throughput, p50/p90/p99/max). Only records; deciding what counts as an error is the caller's.
 */

export interface OperationStats {
  readonly operation: string;
  readonly count: number;
  readonly perSecond: number;
  /** Outcome → requests; for ordinary operations every outcome but `ok` is an error. */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

interface Series {
  samples: number[];
  readonly outcomes: Map<string, number>;
}

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export class LatencyRecorder {
  private readonly phases = new Map<string, Map<string, Series>>();

  record(phase: string, operation: string, ms: number, outcome: string): void {
    const operations = this.phases.get(phase) ?? new Map<string, Series>();
    this.phases.set(phase, operations);
    const series = operations.get(operation) ?? { samples: [], outcomes: new Map<string, number>() };
    operations.set(operation, series);
    series.samples.push(ms);
    series.outcomes.set(outcome, (series.outcomes.get(outcome) ?? 0) + 1);
  }

  /**
   * Every operation of `phase` in the order first seen; `seconds` is the phase's length. Several
   * phases are summarised as one, their samples pooled (`seconds` is then their total length).
   */
  summary(phase: string | readonly string[], seconds: number): OperationStats[] {
    const pooled = new Map<string, Series>();
    for (const name of typeof phase === 'string' ? [phase] : phase) {
      for (const [operation, series] of this.phases.get(name) ?? []) {
        const into = pooled.get(operation) ?? { samples: [], outcomes: new Map<string, number>() };
        pooled.set(operation, into);
        into.samples = into.samples.concat(series.samples);
        for (const [outcome, n] of series.outcomes) into.outcomes.set(outcome, (into.outcomes.get(outcome) ?? 0) + n);
      }
    }
    return [...pooled].map(([operation, series]) => {
      const sorted = Float64Array.from(series.samples).sort();
      const ascending = Array.from(sorted);
      return {
        operation,
        count: ascending.length,
        perSecond: ascending.length / seconds,
        outcomes: Object.fromEntries([...series.outcomes].sort((a, b) => b[1] - a[1])),
        p50Ms: percentile(ascending, 50),
        p90Ms: percentile(ascending, 90),
        p99Ms: percentile(ascending, 99),
        maxMs: ascending[ascending.length - 1] ?? Number.NaN,
      };
    });
  }
}
