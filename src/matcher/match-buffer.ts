/**
 * A growable, reusable Int32Array of (pattern, start, end) triples behind each engine's MatchList.
 * It only stores and orders triples; it knows nothing about engines or text.
 */

import type { MatchList } from './matcher.js';

export class MatchBuffer {
  data: Int32Array;
  count = 0;

  constructor(initialTriples = 1024) {
    this.data = new Int32Array(initialTriples * 3);
  }

  get capacity(): number {
    return this.data.length / 3;
  }

  view(): MatchList {
    return { count: this.count, data: this.data };
  }

  reset(): void {
    this.count = 0;
  }

  /** Grows to hold at least `triples` triples, keeping the first `count`. */
  ensureCapacity(triples: number): void {
    if (triples <= this.capacity) return;
    const grown = new Int32Array(Math.max(triples, this.capacity * 2) * 3);
    grown.set(this.data.subarray(0, this.count * 3));
    this.data = grown;
  }

  push(pattern: number, start: number, end: number): void {
    if (this.count === this.capacity) this.ensureCapacity(this.count + 1);
    const at = this.count * 3;
    this.data[at] = pattern;
    this.data[at + 1] = start;
    this.data[at + 2] = end;
    this.count++;
  }

  append(list: MatchList): void {
    this.ensureCapacity(this.count + list.count);
    this.data.set(list.data.subarray(0, list.count * 3), this.count * 3);
    this.count += list.count;
  }

  dropLeading(triples: number): void {
    this.data.copyWithin(0, triples * 3, this.count * 3);
    this.count -= triples;
  }

  /** Orders triples by (start, pattern, end): the order both engines promise. */
  sortByStart(): void {
    const data = this.data;
    if (isSorted(data, this.count)) return;
    const order = new Uint32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => compareTriples(data, a, b));
    const sorted = new Int32Array(this.data.length);
    for (let i = 0; i < order.length; i++) {
      const from = order[i] * 3;
      sorted[i * 3] = data[from];
      sorted[i * 3 + 1] = data[from + 1];
      sorted[i * 3 + 2] = data[from + 2];
    }
    this.data = sorted;
  }
}

function compareTriples(data: Int32Array, a: number, b: number): number {
  const x = a * 3;
  const y = b * 3;
  return data[x + 1] - data[y + 1] || data[x] - data[y] || data[x + 2] - data[y + 2];
}

function isSorted(data: Int32Array, count: number): boolean {
  for (let i = 1; i < count; i++) {
    if (compareTriples(data, i - 1, i) > 0) return false;
  }
  return true;
}
