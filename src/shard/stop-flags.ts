/**
 * The slots of a search's stop array (an Int32Array over a SharedArrayBuffer), which the main
 * thread writes and the shard tasks in the workers read.
 */

/** Non-zero when the search should stop (its limit reached by other tasks, or cancelled). */
export const STOP = 0;

/**
 * 0 until the search's first matches have reached its caller (an array of length 1 has no such
 * slot: never). Until then a shard task returns at its first match with where to resume, so a
 * streamed search's first results do not wait for the rest of a range (a common literal's range
 * takes ~100 ms on the Linux corpus).
 */
export const FIRST_DELIVERED = 1;
