/**
 * Compiles a pattern set as a search worker does and makes every lazily compiled form of it exist:
 * Hyperscan's byte-mode and match-or-not databases, and the JS engine's RegExps for both decodings,
 * run until V8 has tiered them up to native code. Only the compile guard's process calls this.
 */
import { compileJsMatcher } from '../matcher/js-regexp.js';
import type { CompiledMatcher, PatternSpec } from '../matcher/matcher.js';
import { selectMatcher, type EnginePreference } from '../matcher/select.js';
import { isQuarryError } from '../errors.js';
import { matcherEngines } from './matchers.js';

/** A UTF-8 hay and a hay that is not UTF-8 (byte mode, latin1 decoding); their content does not matter. */
const PROBES: readonly (readonly [Uint8Array, boolean])[] = [
  [new TextEncoder().encode('probe Text 0123 _é☃\nsecond line\n'), true],
  [Uint8Array.from([0x70, 0x72, 0xff, 0x0a, 0x62, 0xe9, 0x0a]), false],
];

/** V8 compiles a RegExp to bytecode on its first run and to machine code on a later one. */
const ROUNDS = 3;

/** Throws what selecting an engine throws (PATTERN_INVALID, PATTERN_UNSUPPORTED). */
export function exerciseCompiledForms(patterns: readonly PatternSpec[], preference: EnginePreference): void {
  runAll(selectMatcher(patterns, matcherEngines(), preference));
  // The JS forms serve Hyperscan's uncertain extents and symbol-name matching even when Hyperscan
  // takes the set; a set only Hyperscan can compile never reaches them.
  try {
    runAll(compileJsMatcher(patterns));
  } catch (err) {
    if (!isQuarryError(err, 'PATTERN_INVALID')) throw err;
  }
}

function runAll(matcher: CompiledMatcher): void {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [hay, utf8] of PROBES) {
      matcher.scan(hay, utf8);
      matcher.test(hay, utf8);
    }
  }
}
