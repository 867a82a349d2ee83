/**
 * The doc ranges of one segment, searched by several shard tasks that share their candidates: a task
 * publishes a range's candidate count on a shared board and claims candidates one at a time; one
 * done with its own range takes a range no task has started, then joins the busiest started one.
 * Selective queries' candidates cluster in one directory (one range), which would otherwise keep
 * one thread busy while the other idles, or leave a range to a task that starts late.
 * Pure bookkeeping on an Int32Array over a SharedArrayBuffer; it never reads the index.
 */

export interface SharedRange {
  readonly lo: number;
  readonly hi: number;
  readonly deleted: readonly number[];
}

export interface RangeShare {
  /** Per range two slots: the published candidate count (-1 until its task starts), the next index to claim. */
  readonly board: Int32Array;
  readonly ranges: readonly SharedRange[];
  /** The range this task searches first. */
  readonly own: number;
  /** How long after its start the task may still take another range (SHARE_WINDOW_MS). */
  readonly windowMs: number;
  /**
   * The own range was left part-claimed by an earlier task of this search that returned at its
   * first match (ShardResume): this task claims the rest of it, however little is left.
   */
  readonly resumed?: boolean;
}

/**
 * Joining a range another task is verifying means computing its candidates again (trigram
 * postings, path filters), so a task joins only while at least this many are still unclaimed.
 */
export const MIN_JOINED_CANDIDATES = 8;

/**
 * A task takes another range only within this long of its start: selective queries share all
 * their work, while a heavy query's tasks stay one range long, the unit the pool's fair queue
 * interleaves callers by (and preempts, losing only that task's ranges).
 */
export const SHARE_WINDOW_MS = 50;

const UNPUBLISHED = -1;

export function createRangeBoard(rangeCount: number): Int32Array {
  const board = new Int32Array(new SharedArrayBuffer(rangeCount * 2 * Int32Array.BYTES_PER_ELEMENT));
  for (let range = 0; range < rangeCount; range++) board[range * 2] = UNPUBLISHED;
  return board;
}

/** Records a range's candidate count; every task computes the same count, so the first one to publish stands. */
export function publishCandidates(board: Int32Array, range: number, count: number): void {
  Atomics.compareExchange(board, range * 2, UNPUBLISHED, count);
}

/** The next unclaimed candidate index of `range`, or -1 when none is left. */
export function claimCandidate(board: Int32Array, range: number): number {
  const total = Atomics.load(board, range * 2);
  if (total <= 0) return -1;
  const index = Atomics.add(board, range * 2 + 1, 1);
  return index < total ? index : -1;
}

/** Leaves a range's unclaimed candidates to nobody (its search stopped at a limit or deadline). */
export function closeRange(board: Int32Array, range: number): void {
  Atomics.store(board, range * 2 + 1, Math.max(0, Atomics.load(board, range * 2)));
}

/**
 * Whether a task should compute `range`'s candidates and claim from it: yes when no task has
 * started it, or when enough of it is still unclaimed to be worth computing its candidates again.
 */
export function worthJoining(board: Int32Array, range: number): boolean {
  const total = Atomics.load(board, range * 2);
  return total === UNPUBLISHED || total - Atomics.load(board, range * 2 + 1) >= MIN_JOINED_CANDIDATES;
}

/**
 * The range a task done with its own should take next, or -1: one no task has started (no work
 * is done twice), else the started one with the most candidates unclaimed, if worth joining.
 */
export function nextRange(board: Int32Array, visited: ReadonlySet<number>): number {
  let best = -1;
  let bestLeft = MIN_JOINED_CANDIDATES - 1;
  for (let range = 0; range * 2 < board.length; range++) {
    if (visited.has(range)) continue;
    const total = Atomics.load(board, range * 2);
    if (total === UNPUBLISHED) return range;
    const left = total - Atomics.load(board, range * 2 + 1);
    if (left > bestLeft) {
      best = range;
      bestLeft = left;
    }
  }
  return best;
}
