/**
 * A map bounded by the bytes its values hold, least recently used out first: the caches diff
 * search keeps across pages hold a commit's matched hunks or a query's postings, whose sizes range
 * from bytes to megabytes on a large repository, so a bound by count bounds nothing.
 */
export class ByteBudgetCache<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private held = 0;

  /** `sizeOf` estimates the bytes of a value and its key once, when it is stored. */
  constructor(private budget: number, private readonly sizeOf: (value: V, key: K) => number) {}

  get maxBytes(): number {
    return this.budget;
  }

  /** The bytes of the values held, as `sizeOf` estimated them. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores the value unless it alone is over the budget, then drops the least recently used until the rest fit. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value, key);
    if (bytes > this.budget) return;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    this.shrink();
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.held -= old.bytes;
  }

  /** A new budget, for a host with other memory to spare or none; applies at once. */
  resize(budget: number): void {
    this.budget = budget;
    this.shrink();
  }

  private shrink(): void {
    for (const [key, entry] of this.entries) {
      if (this.held <= this.budget) return;
      this.entries.delete(key);
      this.held -= entry.bytes;
    }
  }
}

/** Bytes a JavaScript string of this length holds, at most (two per UTF-16 unit, plus its header). */
export function stringBytes(text: string): number {
  return 16 + text.length * 2;
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;

/** A number for the object, the same for as long as it lives: part of a cache key that must not keep it alive. */
export function identityOf(object: object): number {
  let id = identities.get(object);
  if (id === undefined) identities.set(object, (id = nextIdentity++));
  return id;
}
