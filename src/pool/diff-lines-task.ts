/**
 * The 'diff-lines' task in a worker: matches a packed batch of changed lines with this thread's
 * matcher cache and hands the result arrays back transferred, not copied; and 'diff-records',
 * the same over the history index's stored records, answering only the commits that match.
 */
import { scanDiffLines } from '../history/diff-line-scan.js';
import { scanDiffRecords } from '../history/diff-record-scan.js';
import { compileCached } from './matchers.js';
import type { DiffLineMatches, DiffLinesTask, DiffRecordHits, DiffRecordsTask } from './messages.js';
import { moved, type Moved } from './moved.js';

export function runDiffLines(task: DiffLinesTask): Moved<DiffLineMatches> {
  const result = scanDiffLines(task, compileCached);
  return moved(result, [result.counts.buffer, result.ranges.buffer, result.accepted.buffer]);
}

export function runDiffRecords(task: DiffRecordsTask): DiffRecordHits {
  return scanDiffRecords(task, compileCached);
}
