/**
 * The reference matcher: JavaScript RegExp over the decoded hay. Extents are leftmost-first (JS
 * backtracking semantics); Hyperscan's are leftmost-longest, so `a|ab` on "ab" differs by engine.
 */

import { createError } from '../errors.js';
import { decodeLatin1, decodeLossy, decodeUtf8, type HayText } from './hay-text.js';
import { MatchBuffer } from './match-buffer.js';
import { MAX_TEST_PATTERNS, type CompiledMatcher, type MatchList, type MatcherFactory, type PatternSpec, type Support } from './matcher.js';

const SUPPORTED: Support = { ok: true };
/**
 * What V8 keeps per character of a pattern's source once its RegExps (one per decoding) have run
 * and been compiled to machine code: 60–160 bytes measured on Node 20 for word alternations of 10
 * to 300 words, so a generous round figure. Plus a fixed cost per pattern.
 */
const REGEXP_BYTES_PER_CHAR = 256;
const REGEXP_BYTES_FIXED = 1024;

/** The estimated memory of the JS engine's compiled forms of `patterns`. */
export function jsPatternBytes(patterns: readonly PatternSpec[]): number {
  return patterns.reduce((n, spec) => n + REGEXP_BYTES_FIXED + REGEXP_BYTES_PER_CHAR * spec.js.length, 0);
}

export function createJsMatcherFactory(): MatcherFactory {
  return {
    engine: 'js',
    supports: () => SUPPORTED,
    compile: (patterns) => compileJsMatcher(patterns),
  };
}

/** Throws PATTERN_INVALID (with the pattern index) when a source is not a valid `u`-mode RegExp. */
export function compileJsMatcher(patterns: readonly PatternSpec[]): JsRegExpMatcher {
  return new JsRegExpMatcher(patterns.map((spec, index) => new JsPattern(spec, index)), jsPatternBytes(patterns));
}

/** The RegExp error for `spec` compiled as the JS engine would, or null when it compiles. */
export function jsPatternError(spec: PatternSpec): string | null {
  try {
    new RegExp(spec.js, unicodeFlags(spec));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export class JsRegExpMatcher implements CompiledMatcher {
  readonly engine = 'js';
  private readonly buffer = new MatchBuffer();
  private readonly all: readonly number[];

  constructor(private readonly patterns: readonly JsPattern[], private readonly estimatedBytes: number) {
    this.all = patterns.map((_, index) => index);
  }

  get patternCount(): number {
    return this.patterns.length;
  }

  get retainedBytes(): number {
    return this.estimatedBytes + this.buffer.data.byteLength;
  }

  scan(hay: Uint8Array, utf8: boolean): MatchList {
    return this.scanPatterns(hay, utf8, this.all);
  }

  test(hay: Uint8Array, utf8: boolean): number {
    return this.patterns.length > MAX_TEST_PATTERNS ? -1 : this.testPatterns(hay, utf8, this.all);
  }

  /** Scans with only the listed patterns (ascending indices); used to settle Hyperscan's doubts. */
  scanPatterns(hay: Uint8Array, utf8: boolean, indices: readonly number[]): MatchList {
    this.buffer.reset();
    const texts = new HayTexts(hay);
    for (const index of indices) {
      const { re, text, unicode } = this.searchFor(index, utf8, texts);
      collect(re, text, index, unicode, this.buffer);
    }
    this.buffer.sortByStart();
    return this.buffer.view();
  }

  /**
   * test() over the listed patterns (indices below MAX_TEST_PATTERNS). A scan reports a pattern
   * exactly when its first search from the start finds something, which is what `re.test` does.
   */
  testPatterns(hay: Uint8Array, utf8: boolean, indices: readonly number[]): number {
    const texts = new HayTexts(hay);
    let mask = 0;
    for (const index of indices) {
      const { re, text } = this.searchFor(index, utf8, texts);
      re.lastIndex = 0;
      if (re.test(text.text)) mask |= 1 << index;
    }
    return mask;
  }

  private searchFor(index: number, utf8: boolean, texts: HayTexts): { re: RegExp; text: HayText; unicode: boolean } {
    const pattern = this.patterns[index];
    const latin1 = utf8 ? null : pattern.latin1();
    if (latin1) return { re: latin1, text: texts.latin1(), unicode: false };
    return { re: pattern.unicode, text: utf8 ? texts.utf8() : texts.lossy(), unicode: true };
  }
}

/**
 * Non-UTF-8 hay is searched as latin1 (one char per byte, no `u` flag), which matches Hyperscan's
 * byte mode for ASCII patterns. Patterns that need `u` semantics (non-ASCII literals, \p{..},
 * \u{..}, or sources invalid without `u`) search a lossy UTF-8 decoding instead.
 */
class JsPattern {
  readonly unicode: RegExp;
  private latin1Pattern: RegExp | null | undefined;

  constructor(private readonly spec: PatternSpec, index: number) {
    try {
      this.unicode = new RegExp(spec.js, 'g' + unicodeFlags(spec));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw createError('PATTERN_INVALID', `pattern ${index}: ${message}`, { engine: 'js', index, message });
    }
  }

  latin1(): RegExp | null {
    if (this.latin1Pattern === undefined) this.latin1Pattern = compileLatin1(this.spec);
    return this.latin1Pattern;
  }
}

function unicodeFlags(spec: PatternSpec): string {
  return spec.caseless ? 'ui' : 'u';
}

const NEEDS_UNICODE = /[^\x00-\x7f]|\\[pP]\{|\\u\{/;

function compileLatin1(spec: PatternSpec): RegExp | null {
  if (NEEDS_UNICODE.test(spec.js)) return null;
  try {
    return new RegExp(spec.js, spec.caseless ? 'gi' : 'g');
  } catch {
    return null;
  }
}

/** Decodes the hay at most once per decoding, and only when some pattern needs it. */
class HayTexts {
  private utf8Text: HayText | undefined;
  private latin1Text: HayText | undefined;
  private lossyText: HayText | undefined;

  constructor(private readonly hay: Uint8Array) {}

  utf8(): HayText {
    return (this.utf8Text ??= decodeUtf8(this.hay));
  }

  latin1(): HayText {
    return (this.latin1Text ??= decodeLatin1(this.hay));
  }

  lossy(): HayText {
    return (this.lossyText ??= decodeLossy(this.hay));
  }
}

function collect(re: RegExp, hay: HayText, pattern: number, unicode: boolean, out: MatchBuffer): void {
  const { text, offsets } = hay;
  offsets.reset();
  re.lastIndex = 0;
  for (let match = re.exec(text); match !== null; match = re.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    out.push(pattern, offsets.toByte(start), offsets.toByte(end));
    // A zero-width match is reported, then the search resumes one code point later.
    if (end === start) re.lastIndex = end + (unicode && isSurrogatePair(text, end) ? 2 : 1);
  }
}

function isSurrogatePair(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
