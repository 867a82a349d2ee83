/**
 * The Hyperscan matcher: the only module in src that loads native/hyperscan (it also hands the
 * addon's lineSpans to lines.ts). Sets Hyperscan cannot take (no Hyperscan form, compile
 * failure, empty-matching patterns) are left to JS.
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Addon from '../../native/hyperscan/index.js';
import { createError, errorMessage, isQuarryError } from '../errors.js';
import { HyperscanStatus, hyperscanStatusName } from './hyperscan-status.js';
import { compileJsMatcher, jsPatternError, type JsRegExpMatcher } from './js-regexp.js';
import { MatchBuffer } from './match-buffer.js';
import { MAX_TEST_PATTERNS, type CompiledMatcher, type MatchList, type MatcherFactory, type PatternSpec, type Support } from './matcher.js';

type HyperscanAddon = typeof Addon;

const ADDON_ENTRY = join('native', 'hyperscan', 'index.js');
const MAX_VERDICTS = 1024;

let addon: HyperscanAddon | undefined;

/** Throws NATIVE_UNAVAILABLE when the addon is not built (`npm run build:native`). */
export function createHyperscanMatcherFactory(): MatcherFactory {
  const native = loadAddon();
  const verdicts = new Map<string, Support>();
  // supports() compiles to learn its verdict; the next compile() of the same set reuses that work.
  let pending: { key: string; database: Addon.Database } | null = null;

  function remember(key: string, support: Support): Support {
    if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value as string);
    verdicts.set(key, support);
    return support;
  }

  return {
    engine: 'hyperscan',
    supports(patterns) {
      if (patterns.length === 0) return { ok: false, reason: 'empty pattern set' };
      const missing = patterns.findIndex((spec) => spec.hyperscan === null);
      if (missing >= 0) return { ok: false, reason: `pattern ${missing} has no Hyperscan form` };
      const key = setKey(patterns);
      const known = verdicts.get(key);
      if (known) return known;
      const result = compileSet(native, patterns);
      if ('status' in result) return remember(key, { ok: false, reason: failureReason(result) });
      pending = { key, database: result };
      return remember(key, { ok: true });
    },
    compile(patterns) {
      if (patterns.length === 0 || patterns.some((spec) => spec.hyperscan === null)) {
        throw createError('PATTERN_UNSUPPORTED', 'Hyperscan needs a non-empty set of Hyperscan patterns', {
          engine: 'hyperscan',
        });
      }
      const key = setKey(patterns);
      const result = pending?.key === key ? pending.database : compileSet(native, patterns);
      pending = null;
      if ('status' in result) throw compileError(patterns, result);
      return new HyperscanMatcher(native, result, patterns);
    },
  };
}

class HyperscanMatcher implements CompiledMatcher {
  readonly engine = 'hyperscan';
  private readonly buffer = new MatchBuffer(4096);
  private reference: JsRegExpMatcher | undefined;
  private readonly all: readonly number[];

  constructor(
    private readonly native: HyperscanAddon,
    private readonly database: Addon.Database,
    private readonly patterns: readonly PatternSpec[],
  ) {
    this.all = patterns.map((_, index) => index);
  }

  get patternCount(): number {
    return this.patterns.length;
  }

  get retainedBytes(): number {
    return this.database.bytes + this.buffer.data.byteLength + (this.reference?.retainedBytes ?? 0);
  }

  scan(hay: Uint8Array, utf8: boolean): MatchList {
    const result = this.database.scan(hay, utf8, this.buffer.data);
    if (result >= 0) {
      this.buffer.count = result;
      return this.buffer.view();
    }
    switch (result) {
      case HyperscanStatus.RESULTS_RETAINED:
        return this.takeRetained(hay, utf8);
      case HyperscanStatus.TOO_MANY_REPORTS:
      case HyperscanStatus.BYTE_MODE_UNAVAILABLE:
        return this.referenceScan(hay, utf8, this.all);
      default:
        throw createError('INTERNAL', `Hyperscan scan failed: ${hyperscanStatusName(result)}`, { status: result });
    }
  }

  /**
   * Exact for every set Hyperscan takes: the test database holds the same expressions with the
   * same flags, minus start-of-match tracking, so it reports a pattern exactly when the scan
   * database does, and scan() reports every pattern that has a raw report. Where scan() hands a
   * pattern to the JS engine (uncertain extents, report overflow), that engine finds a match
   * exactly when Hyperscan does, which test/matcher/differential.test.ts holds both dialects to.
   */
  test(hay: Uint8Array, utf8: boolean): number {
    if (this.patterns.length > MAX_TEST_PATTERNS) return -1;
    const result = this.database.test(hay, utf8);
    if (result >= 0) return result;
    switch (result) {
      case HyperscanStatus.BYTE_MODE_UNAVAILABLE:
        return this.referenceMatcher().testPatterns(hay, utf8, this.all);
      case HyperscanStatus.COMPILE_FAILED:
        // Dropping start-of-match only eases compiling, so this is not expected; answering from
        // scan() keeps test() exact should Hyperscan still refuse.
        return patternBits(this.scan(hay, utf8));
      default:
        throw createError('INTERNAL', `Hyperscan test failed: ${hyperscanStatusName(result)}`, { status: result });
    }
  }

  private takeRetained(hay: Uint8Array, utf8: boolean): MatchList {
    const buffer = this.buffer;
    const count = this.native.takeResults(buffer.data);
    if (count > buffer.capacity) {
      buffer.ensureCapacity(count);
      this.native.takeResults(buffer.data);
    }
    buffer.count = count;
    const uncertain: number[] = [];
    while (uncertain.length < count && buffer.data[uncertain.length * 3 + 1] === -1) {
      uncertain.push(buffer.data[uncertain.length * 3]);
    }
    if (uncertain.length === 0) return buffer.view();
    // Leading (pattern, -1, -1) markers name patterns whose extents only a rescan can settle.
    const settled = this.referenceMatcher().scanPatterns(hay, utf8, uncertain);
    buffer.dropLeading(uncertain.length);
    buffer.append(settled);
    buffer.sortByStart();
    return buffer.view();
  }

  private referenceScan(hay: Uint8Array, utf8: boolean, indices: readonly number[]): MatchList {
    const list = this.referenceMatcher().scanPatterns(hay, utf8, indices);
    this.buffer.reset();
    this.buffer.append(list);
    return this.buffer.view();
  }

  private referenceMatcher(): JsRegExpMatcher {
    return (this.reference ??= compileJsMatcher(this.patterns));
  }
}

function patternBits(list: MatchList): number {
  let mask = 0;
  for (let i = 0; i < list.count; i++) mask |= 1 << list.data[i * 3];
  return mask;
}

/**
 * The addon's lineSpans, for src/matcher/lines.ts (which may not load the addon itself), or null
 * when the addon is not built.
 */
export function nativeLineSpans(): HyperscanAddon['lineSpans'] | null {
  try {
    return loadAddon().lineSpans;
  } catch (err) {
    if (isQuarryError(err, 'NATIVE_UNAVAILABLE')) return null;
    throw err;
  }
}

function compileSet(native: HyperscanAddon, patterns: readonly PatternSpec[]): Addon.Database | Addon.CompileFailure {
  const sources = patterns.map((spec) => spec.hyperscan ?? '');
  const caseless = Uint8Array.from(patterns, (spec) => ((spec.hyperscanCaseless ?? spec.caseless) ? 1 : 0));
  return native.compile(sources, caseless);
}

function failureReason(failure: Addon.CompileFailure): string {
  const where = failure.index >= 0 ? `pattern ${failure.index}` : 'pattern set';
  return `${where}: ${failure.message}`;
}

/** Invalid when the JS form is invalid too; otherwise merely beyond Hyperscan, so JS may take it. */
function compileError(patterns: readonly PatternSpec[], failure: Addon.CompileFailure) {
  const spec = failure.index >= 0 ? patterns[failure.index] : undefined;
  const invalid = failure.status === HyperscanStatus.COMPILE_FAILED && spec !== undefined && jsPatternError(spec) !== null;
  const status = hyperscanStatusName(failure.status);
  const details = { engine: 'hyperscan', index: failure.index, message: failure.message, status };
  return createError(invalid ? 'PATTERN_INVALID' : 'PATTERN_UNSUPPORTED', failureReason(failure), details);
}

function setKey(patterns: readonly PatternSpec[]): string {
  return JSON.stringify(patterns.map((spec) => [spec.hyperscan, spec.hyperscanCaseless ?? spec.caseless]));
}

function loadAddon(): HyperscanAddon {
  if (addon) return addon;
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  if (root === null) throw createError('NATIVE_UNAVAILABLE', `cannot find ${ADDON_ENTRY} above this module`);
  try {
    addon = createRequire(import.meta.url)(join(root, ADDON_ENTRY)) as HyperscanAddon;
  } catch (err) {
    throw createError('NATIVE_UNAVAILABLE', errorMessage(err), { entry: join(root, ADDON_ENTRY) });
  }
  return addon;
}

/** Walks up to the directory holding native/hyperscan, wherever this file was compiled to. */
function packageRoot(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, ADDON_ENTRY))) return dir;
    if (dirname(dir) === dir) return null;
  }
}
