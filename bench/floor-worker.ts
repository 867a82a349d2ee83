/**
 * The piscina worker for the pool floor: returns its input untouched, so a round trip measures
 * only the pool's own cost (queueing, structured clone, thread wake-up).
 */
export default function echo<T>(input: T): T {
  return input;
}
