/**
 * A per-worker LRU of compiled matchers keyed by a canonical string of the pattern set and the
 * engine preference. Failed compiles are not cached; the errors propagate to the caller.
 */

import { createError } from '../errors.js';
import type { CompiledMatcher, MatcherFactory, PatternSpec } from './matcher.js';
import { selectMatcher, type EnginePreference } from './select.js';

export function matcherCacheKey(patterns: readonly PatternSpec[], preference: EnginePreference): string {
  return JSON.stringify([preference, patterns.map((spec) => [spec.hyperscan, spec.js, spec.caseless, spec.hyperscanCaseless ?? spec.caseless])]);
}

export class MatcherCache {
  private readonly entries = new Map<string, CompiledMatcher>();
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly engines: readonly MatcherFactory[],
    // Agents behind one gateway send many distinct queries: at 64 entries, a cycle of 100 selective
    // queries recompiled every one (a tenth of a search worker's time). 256 mixed literal and regex
    // databases hold about 13 MB per worker.
    readonly capacity = 256,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw createError('INTERNAL', `matcher cache capacity must be a positive integer, got ${capacity}`);
    }
  }

  get size(): number {
    return this.entries.size;
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
      return cached;
    }
    this.missCount++;
    const matcher = selectMatcher(patterns, this.engines, preference);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, matcher);
    return matcher;
  }
}
