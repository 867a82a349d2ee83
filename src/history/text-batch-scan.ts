/**
 * Worker side of text batches: every pattern of a job over the texts in scope, one pattern set at
 * a time. Runs only in a pool worker, never on the main thread; the matcher compiler is injected
 * (the worker's cache).
 */
import type { CompiledMatcher } from '../matcher/matcher.js';
import type { CompileMatcher } from './diff-line-scan.js';
import type { TextMatchJob, TextMatches } from './text-batch.js';

/** How many texts are matched between two looks at the clock. */
const CLOCK_EVERY = 256;

/** Runs in a worker: every pattern over the texts in scope. */
export function matchTextBatch(job: TextMatchJob, compile: CompileMatcher): TextMatches {
  const count = job.ends.length;
  const hits = new Uint8Array(job.specs.length * count);
  const ranges: number[] = [];
  for (let p = 0; p < job.specs.length; p++) {
    const matcher = compile([job.specs[p]!], 'auto');
    let start = 0;
    for (let t = 0; t < count; t++) {
      const end = job.ends[t]!;
      if (t % CLOCK_EVERY === 0 && Date.now() > job.deadline) return { hits, ranges: Int32Array.from(ranges), timedOut: true };
      if (job.scope === null || job.scope[t] === 1) {
        const hay = job.data.subarray(start, end);
        if (matcher.test(hay, true) !== 0) {
          hits[p * count + t] = 1;
          if (job.ranges) pushRanges(matcher, hay, p, t, ranges);
        }
      }
      start = end;
    }
  }
  return { hits, ranges: Int32Array.from(ranges), timedOut: false };
}

function pushRanges(matcher: CompiledMatcher, hay: Uint8Array, pattern: number, text: number, out: number[]): void {
  const list = matcher.scan(hay, true);
  for (let i = 0; i < list.count; i++) out.push(pattern, text, list.data[i * 3 + 1]!, list.data[i * 3 + 2]!);
}
