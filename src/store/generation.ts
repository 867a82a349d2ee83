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
 * A replay of other nodes' changes (PostgreSQL) may land within a turn, just before the request
 * that waited for it is authenticated: the memo holds only while the engine took no outside change.
 */
let thisTurn = new WeakMap<Store, { readonly generation: number; readonly outside: number }>();
let forgetScheduled = false;

export function storeGeneration(store: Store): number {
  const known = thisTurn.get(store);
  if (known !== undefined && known.outside === store.root.outsideChanges) return known.generation;
  const value = store.meta.get(KEY);
  return remember(store, stamp(store, typeof value === 'number' ? value : 0));
}

/**
 * The generation, told apart by how many of this process's writes were undone: a write refused
 * (another node's won) may have bumped to the very number the winner stored, and what was derived
 * from the undone state must not pass for the winner's.
 */
function stamp(store: Store, generation: number): number {
  return store.root.undoneWrites * 2 ** 32 + generation;
}

function remember(store: Store, generation: number): number {
  thisTurn.set(store, { generation, outside: store.root.outsideChanges });
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
  remember(store, stamp(store, next));
}

/** Memoizes `compute` until the store generation moves (compared for equality only: it is a stamp, not a count). */
export function byGeneration<T>(store: Store, compute: () => T): () => T {
  let cached: { generation: number; value: T } | null = null;
  return () => {
    const generation = storeGeneration(store);
    if (cached === null || cached.generation !== generation) cached = { generation, value: compute() };
    return cached.value;
  };
}
