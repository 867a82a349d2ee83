/**
 * A counter bumped, inside the same write transaction, by every change that authentication,
 * authorization or settings depend on (users, tokens, roles, repository restrictions, site
 * configuration). Caches keyed by it stay exact across processes: one cheap read tells them
 * whether anything they derived from the store may have changed.
 */
import type { Store } from './open.js';

const KEY = 'generation';

export function storeGeneration(store: Store): number {
  const value = store.meta.get(KEY);
  return typeof value === 'number' ? value : 0;
}

/** Call inside the write transaction that makes the change. */
export function bumpGeneration(store: Store): void {
  store.meta.putSync(KEY, storeGeneration(store) + 1);
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
