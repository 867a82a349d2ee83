/**
 * One request's searches run one after another, never side by side: graphql-jit resolves a
 * query's root fields concurrently, and a single search already fans out to the whole worker
 * pool. The lane is keyed by the request's context object, which all of its resolvers receive.
 */
import { createError } from '../../errors.js';

const lanes = new WeakMap<object, Promise<unknown>>();

/** Runs `search` after the request's earlier searches settle; a cancelled request starts no more. */
export function inSearchLane<T>(request: object, signal: AbortSignal | undefined, search: () => Promise<T>): Promise<T> {
  const previous = lanes.get(request) ?? Promise.resolve();
  const next = previous.then(() => {
    if (signal?.aborted) throw createError('ABORTED', 'search cancelled');
    return search();
  });
  lanes.set(request, next.catch(() => undefined));
  return next;
}
