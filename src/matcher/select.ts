/**
 * Picks the first engine that can take a pattern set. It compiles through the factories it is
 * given and never loads an engine itself.
 */

import { createError, errorMessage, isQuarryError } from '../errors.js';
import type { CompiledMatcher, MatcherFactory, PatternSpec } from './matcher.js';

/** 'auto' tries every engine in the order given; a named engine is used alone, with no fallback. */
export type EnginePreference = 'auto' | 'hyperscan' | 'js';

/** Throws PATTERN_UNSUPPORTED when no allowed engine takes the set; PATTERN_INVALID passes through. */
export function selectMatcher(
  patterns: readonly PatternSpec[],
  engines: readonly MatcherFactory[],
  preference: EnginePreference,
): CompiledMatcher {
  const candidates = preference === 'auto' ? engines : engines.filter((factory) => factory.engine === preference);
  const reasons: string[] = [];
  for (const factory of candidates) {
    const support = factory.supports(patterns);
    if (!support.ok) {
      reasons.push(`${factory.engine}: ${support.reason}`);
      continue;
    }
    try {
      return factory.compile(patterns);
    } catch (err) {
      if (!isQuarryError(err, 'PATTERN_UNSUPPORTED')) throw err;
      reasons.push(`${factory.engine}: ${errorMessage(err)}`);
    }
  }
  const why = reasons.length > 0 ? reasons.join('; ') : `no ${preference} engine available`;
  throw createError('PATTERN_UNSUPPORTED', `no matcher engine takes these patterns (${why})`, { preference, reasons });
}
