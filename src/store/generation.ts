/**
 * A counter bumped, inside the same write transaction, by every change that authentication,
 * authorization or settings depend on (users, tokens, roles, repository restrictions, site
 * configuration). Caches keyed by it stay exact across processes: one cheap read tells them
 * whether anything they derived from the store may have changed.
 */
import type { Store } from './records.js';

const KEY = 'generation';

/**
 * The generation read in this turn of the event loop, per store. A request asks several times
 * (body limit, caller limits, authentication, settings); requests that arrive in one turn came in
 * together, so they share one read, and a change from any process shows from the next turn on.
 */
let thisTurn = new WeakMap<Store, number>();
let forgetScheduled = false;

export function storeGeneration(store: Store): number {
  const known = thisTurn.get(store);
  if (known !== undefined) return known;
  const value = store.meta.get(KEY);
  return remember(store, typeof value === 'number' ? value : 0);
}

function remember(store: Store, generation: number): number {
  thisTurn.set(store, generation);
  if (!forgetScheduled) {
    forgetScheduled = true;
    setImmediate(() => {
      thisTurn = new WeakMap();
      forgetScheduled = false;
    }).unref();
  }
  return generation;
}

/** Call inside the write transaction that makes the change. */
export function bumpGeneration(store: Store): void {
  const value = store.meta.get(KEY);
  const next = (typeof value === 'number' ? value : 0) + 1;
  store.meta.putSync(KEY, next);
  remember(store, next);
}

/** Memoizes `compute` until the store generation moves. */
export function byGeneration<T>(store: Store, compute: () => T): () => T {
  let cached: { generation: number; value: T } | null = null;
  return () => {
    const generation = storeGeneration(store);
    if (cached === null || cached.generation !== generation) cached = { generation, value: compute() };
    return cached.value;
  };
}
