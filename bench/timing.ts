/**
 * Timing with tinybench, one task at a time so no contender shares a machine with another.
 * A task gets at least a second of samples when it is fast, and stays near ten seconds when slow.
 */
import { Bench, type FnReturnedObject } from 'tinybench';

export interface Timing {
  readonly name: string;
  readonly medianMs: number;
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Relative margin of error of the mean, percent. */
  readonly rmePercent: number;
  /** Every sample, in milliseconds, ascending. */
  readonly samplesMs: readonly number[];
}

export interface MeasureOptions {
  /** Duration of one earlier run of the same work: sizes the iteration count. */
  readonly expectedMs: number;
  readonly warmupIterations: number;
  /** Declared, so tinybench does not call the task an extra time to find out. */
  readonly async: boolean;
}

const TIME_BUDGET_MS = 1000;
const TASK_CAP_MS = 10_000;
const MIN_ITERATIONS = 3;
const MAX_MIN_ITERATIONS = 5;
/** Significant digits kept per recorded sample: far below timer noise, and raw.json stays small. */
const SAMPLE_DIGITS = 6;

function iterationsFor(expectedMs: number): number {
  const fit = Math.floor(TASK_CAP_MS / Math.max(expectedMs, 1));
  return Math.max(MIN_ITERATIONS, Math.min(MAX_MIN_ITERATIONS, fit));
}

export async function measure(name: string, fn: () => Promise<unknown> | FnReturnedObject, options: MeasureOptions): Promise<Timing> {
  const bench = new Bench({
    name,
    time: TIME_BUDGET_MS,
    iterations: iterationsFor(options.expectedMs),
    warmupIterations: options.warmupIterations,
    warmupTime: 0,
    retainSamples: true,
    throws: true,
  });
  bench.add(name, fn, { async: options.async });
  await bench.run();
  const result = bench.getTask(name)!.result;
  if (result.state !== 'completed') throw new Error(`benchmark task ${name} ended ${result.state}`);
  const { latency } = result;
  return {
    name,
    medianMs: latency.p50,
    meanMs: latency.mean,
    minMs: latency.min,
    maxMs: latency.max,
    rmePercent: latency.rme,
    samplesMs: (latency.samples ?? []).map((x) => Number(x.toPrecision(SAMPLE_DIGITS))),
  };
}
