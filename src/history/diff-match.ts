/**
 * Finds a diff search pattern in changed lines with Quarry's matcher: the pattern planned by
 * src/regex exactly as the search service plans it, compiled once (Hyperscan when it takes the
 * pattern, so matching stays linear), and ranges reported in code points, end exclusive.
 */
import { createError } from '../errors.js';
import type { CompiledMatcher } from '../matcher/matcher.js';
import { compileCached } from '../pool/matchers.js';
import { planLiteral, planRegex } from '../regex/index.js';

export interface DiffPatternOptions {
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

/** [start, end) code point offsets of the matches in one line. */
export type LineRange = readonly [number, number];

export interface LineMatcher {
  ranges(line: string): LineRange[];
}

/** Throws PATTERN_INVALID for an empty or malformed pattern. */
export function compileDiffPattern(pattern: string, options: DiffPatternOptions): LineMatcher {
  if (pattern === '') throw createError('PATTERN_INVALID', 'the diff search pattern is empty: give the text or regular expression to find in changed lines');
  const plan = options.regex ? planRegex(pattern, { caseSensitive: options.caseSensitive }) : planLiteral(pattern, { caseSensitive: options.caseSensitive });
  const matcher = compileCached([plan.spec], 'auto');
  return { ranges: (line) => lineRanges(matcher, line) };
}

function lineRanges(matcher: CompiledMatcher, line: string): LineRange[] {
  if (line === '') return [];
  const hay = Buffer.from(line, 'utf8');
  if (matcher.test(hay, true) === 0) return [];
  const list = matcher.scan(hay, true);
  const ranges: LineRange[] = [];
  for (let i = 0; i < list.count; i++) {
    const start = list.data[i * 3 + 1]!;
    const end = list.data[i * 3 + 2]!;
    if (end > start) ranges.push([codePoints(hay, start), codePoints(hay, end)]);
  }
  return ranges;
}

/** How many code points the first `bytes` bytes of UTF-8 `hay` hold: the bytes that do not continue a sequence. */
function codePoints(hay: Uint8Array, bytes: number): number {
  let n = 0;
  for (let i = 0; i < bytes; i++) if ((hay[i]! & 0xc0) !== 0x80) n++;
  return n;
}
