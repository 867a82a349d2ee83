/**
 * A per-worker LRU of compiled matchers keyed by a canonical string of the pattern set and the
 * engine preference, bounded by entries and by the bytes the matchers hold (their databases and
 * compiled RegExps). Failed compiles are not cached; the errors propagate to the caller.
 */

import { createError } from '../errors.js';
import type { CompiledMatcher, MatcherFactory, PatternSpec } from './matcher.js';
import { selectMatcher, type EnginePreference } from './select.js';

export function matcherCacheKey(patterns: readonly PatternSpec[], preference: EnginePreference): string {
  return JSON.stringify([preference, patterns.map((spec) => [spec.hyperscan, spec.js, spec.caseless, spec.hyperscanCaseless ?? spec.caseless])]);
}

/**
 * Agents behind one gateway send many distinct queries: at 64 entries, a cycle of 100 selective
 * queries recompiled every one (a tenth of a search worker's time). A literal's matcher weighs
 * about 50 KiB (a 48 KiB match buffer and its databases), so 256 of them fit the byte budget.
 */
export const MATCHER_CACHE_ENTRIES = 256;
/**
 * A 300-word alternation's matcher holds 0.2–0.4 MiB of databases (0.8 MiB of resident memory
 * with the compiler's leftovers) and compiles within the compile guard's budget: a caller sending
 * 256 distinct ones would otherwise leave about 200 MiB in each worker.
 */
export const MATCHER_CACHE_BYTES = 16 * 2 ** 20;

interface Entry {
  readonly matcher: CompiledMatcher;
  /** As last weighed: a matcher grows when it compiles a lazy form (byte mode, match-or-not). */
  bytes: number;
}

export class MatcherCache {
  private readonly entries = new Map<string, Entry>();
  private hitCount = 0;
  private missCount = 0;
  private heldBytes = 0;

  constructor(
    private readonly engines: readonly MatcherFactory[],
    readonly capacity = MATCHER_CACHE_ENTRIES,
    readonly maxBytes = MATCHER_CACHE_BYTES,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw createError('INTERNAL', `matcher cache capacity must be a positive integer, got ${capacity}`);
    }
    if (!(maxBytes > 0)) throw createError('INTERNAL', `matcher cache byte budget must be positive, got ${maxBytes}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes the cached matchers held when last weighed (at insertion and at each hit). */
  get bytes(): number {
    return this.heldBytes;
  }

  get hits(): number {
    return this.hitCount;
  }

  get misses(): number {
    return this.missCount;
  }

  get(patterns: readonly PatternSpec[], preference: EnginePreference): CompiledMatcher {
    const key = matcherCacheKey(patterns, preference);
    const cached = this.entries.get(key);
    if (cached) {
      this.hitCount++;
      // Re-inserting moves the entry to the young end of the Map's insertion order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      this.reweigh(cached);
      this.evict(cached);
      return cached.matcher;
    }
    this.missCount++;
    const matcher = selectMatcher(patterns, this.engines, preference);
    const entry: Entry = { matcher, bytes: matcher.retainedBytes };
    // One matcher past the whole budget serves its caller but is not kept.
    if (entry.bytes > this.maxBytes) return matcher;
    this.entries.set(key, entry);
    this.heldBytes += entry.bytes;
    this.evict(entry);
    return matcher;
  }

  private reweigh(entry: Entry): void {
    const bytes = entry.matcher.retainedBytes;
    this.heldBytes += bytes - entry.bytes;
    entry.bytes = bytes;
  }

  /** Oldest first, sparing `keep` (the entry just used), until both bounds hold. */
  private evict(keep: Entry): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.capacity && this.heldBytes <= this.maxBytes) return;
      if (entry === keep) continue;
      this.entries.delete(key);
      this.heldBytes -= entry.bytes;
    }
  }
}
