/**
 * Increasing ids kept in the meta sub-database. Call inside a write transaction so the id and the
 * record that uses it commit together; ids are never reused.
 */

import type { Store } from './records.js';

export function takeNextId(store: Store, counter: string): number {
  const stored = store.meta.get(counter);
  const next = typeof stored === 'number' ? stored : 1;
  store.meta.putSync(counter, next + 1);
  return next;
}
