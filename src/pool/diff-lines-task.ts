/**
 * The 'diff-lines' task in a worker: matches a packed batch of changed lines with this thread's
 * matcher cache and hands the result arrays back transferred, not copied.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { scanDiffLines } from '../history/diff-line-scan.js';
import { compileCached } from './matchers.js';
import type { DiffLinesTask } from './messages.js';

export function runDiffLines(task: DiffLinesTask): unknown {
  const result = scanDiffLines(task, compileCached);
  return move({ [transferableSymbol]: [result.counts.buffer, result.ranges.buffer, result.accepted.buffer], [valueSymbol]: result } as Parameters<typeof move>[0]);
}
