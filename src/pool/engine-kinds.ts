/** The engine's task kinds as every pool implementation names them, fails them and moves their arrays. */
import type { KindTable } from './kinds.js';
import type { EngineTasks } from './pool.js';

export const ENGINE_KINDS: KindTable<EngineTasks> = {
  // A shard that fails is a counted partial result of its search, not a failed query.
  shard: { what: 'shard search', failure: 'SHARD_CRASHED', transfer: (task) => (task.source.kind === 'memory' ? [task.source.data.buffer, task.source.ends.buffer] : []) },
  'index-batch': { what: 'index batch', failure: 'INTERNAL', transfer: (task) => [task.data.buffer, task.ends.buffer] },
  'symbols-batch': { what: 'symbol extraction', failure: 'INTERNAL', transfer: (task) => [task.data.buffer, task.ends.buffer] },
  'parse-symbols': { what: 'symbol parsing', failure: 'INTERNAL' },
  highlight: { what: 'syntax highlighting', failure: 'INTERNAL' },
  'diff-postings': { what: 'history index batch', failure: 'INTERNAL', transfer: (task) => [task.text.buffer, task.ends.buffer, task.flags.buffer, task.commitEnds.buffer, task.ordinals.buffer] },
  'diff-lines': { what: 'diff line matching', failure: 'INTERNAL', transfer: (task) => [task.text.buffer, task.ends.buffer, task.flags.buffer, task.commitEnds.buffer] },
  'diff-records': { what: 'diff record matching', failure: 'INTERNAL', transfer: (task) => [task.records.buffer, task.ends.buffer] },
  // A batch kept in SharedArrayBuffers for many jobs is shared, not moved.
  'text-match': { what: 'text matching', failure: 'INTERNAL', transfer: (task) => (task.data.buffer instanceof ArrayBuffer ? [task.data.buffer, task.ends.buffer] : []) },
};

/** Time a task gets past its deadline to notice it and return partial results (shard and text scans check it). */
export const ENGINE_DEADLINE_GRACE_MS = 1000;
