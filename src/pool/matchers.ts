/**
 * This thread's matchers: Hyperscan first, the JS reference engine as fallback, compiled sets
 * cached by canonical key. A missing Hyperscan addon is said once on stderr, never silently.
 */
import { errorMessage } from '../errors.js';
import { MatcherCache } from '../matcher/cache.js';
import { createHyperscanMatcherFactory } from '../matcher/hyperscan.js';
import { createJsMatcherFactory } from '../matcher/js-regexp.js';
import type { CompiledMatcher, MatcherFactory, PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';

let engines: MatcherFactory[] | null = null;
let cache: MatcherCache | null = null;

/** The engines in the order `auto` tries them; the compile guard's process compiles with the same. */
export function matcherEngines(): readonly MatcherFactory[] {
  if (engines) return engines;
  const js = createJsMatcherFactory();
  try {
    engines = [createHyperscanMatcherFactory(), js];
  } catch (err) {
    process.stderr.write(`quarry: Hyperscan unavailable, matching with the JS engine only: ${errorMessage(err)}\n`);
    engines = [js];
  }
  return engines;
}

export function compileCached(patterns: readonly PatternSpec[], preference: EnginePreference): CompiledMatcher {
  cache ??= new MatcherCache(matcherEngines());
  return cache.get(patterns, preference);
}
