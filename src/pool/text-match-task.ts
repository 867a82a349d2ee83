/**
 * The 'text-match' task in a worker: a batch of short texts matched with this thread's matcher
 * cache, the result arrays handed back transferred, not copied.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { matchTextBatch } from '../history/text-batch-scan.js';
import { compileCached } from './matchers.js';
import type { TextMatchTask } from './messages.js';

export function runTextMatch(task: TextMatchTask): unknown {
  const result = matchTextBatch(task, compileCached);
  return move({ [transferableSymbol]: [result.hits.buffer, result.ranges.buffer], [valueSymbol]: result } as Parameters<typeof move>[0]);
}
