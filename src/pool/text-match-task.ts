/**
 * The 'text-match' task in a worker: a batch of short texts matched with this thread's matcher
 * cache, the result arrays handed back transferred, not copied.
 */
import { matchTextBatch } from '../history/text-batch-scan.js';
import { compileCached } from './matchers.js';
import type { TextMatches, TextMatchJob } from './messages.js';
import { moved, type Moved } from './moved.js';

export function runTextMatch(task: TextMatchJob): Moved<TextMatches> {
  const result = matchTextBatch(task, compileCached);
  return moved(result, [result.hits.buffer, result.ranges.buffer]);
}
