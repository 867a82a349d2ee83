/**
 * The matcher contract: one suite every MatcherFactory must pass. Documented behaviour it pins:
 * offsets are bytes; `^`/`$` are `\n` line anchors (a `\r` is ordinary text, so `foo$` does not
 * match "foo\r\n"); `.` stops at `\n` only; output is ordered by (start, pattern). Every scan made
 * through triples() also checks that test() names exactly the patterns scan() reported.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuarryError } from '../../src/errors.js';
import { MAX_TEST_PATTERNS, type CompiledMatcher, type MatcherFactory, type PatternSpec } from '../../src/matcher/matcher.js';
import { random, SpecGenerator } from '../matcher/random-specs.js';

export interface MatcherContractOptions {
  readonly name: string;
  readonly factory: MatcherFactory;
  readonly skip?: readonly { readonly reason: string; readonly tests: readonly string[] }[];
}

export type Triple = [pattern: number, start: number, end: number];

/** A pattern written the same in both dialects. */
export function same(source: string, caseless = false): PatternSpec {
  return { hyperscan: source, js: source, caseless };
}

/** `.` in Hyperscan is `[^\n]` in JS (JS `.` also stops at `\r`, U+2028, U+2029). */
export function dotted(hyperscan: string, caseless = false): PatternSpec {
  return { hyperscan, js: hyperscan.replaceAll('.', '[^\\n]'), caseless };
}

const LINE_START = '(?<![^\\n])';
const LINE_END = '(?![^\\n])';

/** scan()'s triples; asserts on the way that test() (asked first) agrees with them. */
export function triples(matcher: CompiledMatcher, hay: Uint8Array | string, utf8 = true): Triple[] {
  const bytes = typeof hay === 'string' ? new TextEncoder().encode(hay) : hay;
  const bits = matcher.test(bytes, utf8);
  const list = matcher.scan(bytes, utf8);
  const out: Triple[] = [];
  for (let i = 0; i < list.count; i++) out.push([list.data[i * 3], list.data[i * 3 + 1], list.data[i * 3 + 2]]);
  const expected = matcher.patternCount > MAX_TEST_PATTERNS ? -1 : out.reduce((mask, [pattern]) => mask | (1 << pattern), 0);
  if (bits !== expected) {
    const shown = Buffer.from(bytes).toString(utf8 ? 'utf8' : 'latin1');
    assert.fail(`test() gave ${bits}, scan() found patterns ${expected} in ${JSON.stringify(shown)} (utf8 ${utf8})`);
  }
  return out;
}

type Case = [name: string, body: (factory: MatcherFactory) => void];

const cases: Case[] = [
  ['exposes its engine and pattern count', (factory) => {
    const matcher = factory.compile([same('a'), same('b')]);
    assert.equal(matcher.engine, factory.engine);
    assert.equal(matcher.patternCount, 2);
  }],
  ['finds every occurrence of a literal', (factory) => {
    assert.deepEqual(triples(factory.compile([same('needle')]), 'a needle, another needle'), [[0, 2, 8], [0, 18, 24]]);
  }],
  ['is case-sensitive unless the pattern is caseless', (factory) => {
    const matcher = factory.compile([same('Foo'), same('bar', true)]);
    assert.deepEqual(triples(matcher, 'foo Foo BAR bAr bar'), [[0, 4, 7], [1, 8, 11], [1, 12, 15], [1, 16, 19]]);
  }],
  ['folds non-ASCII letters when caseless', (factory) => {
    assert.deepEqual(triples(factory.compile([same('é', true)]), 'ÉCOLE école'), [[0, 0, 2], [0, 7, 9]]);
  }],
  ['reports pattern indices, ordered by start then pattern', (factory) => {
    const matcher = factory.compile([same('b'), same('a'), same('ab')]);
    assert.deepEqual(triples(matcher, 'ab ab'), [[1, 0, 1], [2, 0, 2], [0, 1, 2], [1, 3, 4], [2, 3, 5], [0, 4, 5]]);
  }],
  ['reports byte offsets in multibyte UTF-8 text', (factory) => {
    const matcher = factory.compile([dotted('caf.'), same('😀'), same('ok')]);
    assert.deepEqual(triples(matcher, 'naïve café — 😀 ok'), [[0, 7, 12], [1, 17, 21], [2, 22, 24]]);
  }],
  ['lets . match one whole code point in UTF-8 text', (factory) => {
    assert.deepEqual(triples(factory.compile([dotted('.')]), 'é😀a'), [[0, 0, 2], [0, 2, 6], [0, 6, 7]]);
  }],
  ['matches non-UTF-8 hay byte by byte', (factory) => {
    const hay = Uint8Array.from([0x66, 0x6f, 0x6f, 0xff, 0x62, 0x61, 0x72, 0x0a, 0xfe, 0x66, 0x6f, 0x6f]);
    const lineStartAnyFoo: PatternSpec = { hyperscan: '^.foo', js: `${LINE_START}[^\\n]foo`, caseless: false };
    const matcher = factory.compile([same('foo'), dotted('o.b'), lineStartAnyFoo]);
    assert.deepEqual(triples(matcher, hay, false), [[0, 0, 3], [1, 2, 5], [2, 8, 12], [0, 9, 12]]);
  }],
  ['matches a non-ASCII literal in non-UTF-8 hay by its UTF-8 bytes', (factory) => {
    const hay = Uint8Array.from([0xff, 0x63, 0x61, 0x66, 0xc3, 0xa9]);
    assert.deepEqual(triples(factory.compile([same('é')]), hay, false), [[0, 4, 6]]);
  }],
  ['anchors ^ and $ at \\n line boundaries', (factory) => {
    const matcher = factory.compile([
      { hyperscan: '^foo', js: `${LINE_START}foo`, caseless: false },
      { hyperscan: 'foo$', js: `foo${LINE_END}`, caseless: false },
    ]);
    assert.deepEqual(triples(matcher, 'foo bar\nbar foo\nfoo'), [[0, 0, 3], [1, 12, 15], [0, 16, 19], [1, 16, 19]]);
  }],
  ['treats \\r as text: foo$ does not match before \\r\\n', (factory) => {
    const matcher = factory.compile([
      { hyperscan: 'foo$', js: `foo${LINE_END}`, caseless: false },
      { hyperscan: 'foo\\r$', js: `foo\\r${LINE_END}`, caseless: false },
      { hyperscan: '^foo', js: `${LINE_START}foo`, caseless: false },
    ]);
    assert.deepEqual(triples(matcher, 'foo\r\nfoo\n'), [[1, 0, 4], [2, 0, 3], [0, 5, 8], [2, 5, 8]]);
  }],
  ['never lets . cross a newline, but lets it match \\r', (factory) => {
    assert.deepEqual(triples(factory.compile([dotted('a.c')]), 'a\nc abc a\rc'), [[0, 4, 7], [0, 8, 11]]);
  }],
  ['matches character classes', (factory) => {
    const matcher = factory.compile([same('[0-9]+'), same('[^a-z0-9 ]'), same('\\bx\\w')]);
    assert.deepEqual(triples(matcher, 'a1 b22 C xy'), [[0, 1, 2], [0, 4, 6], [1, 7, 8], [2, 9, 11]]);
  }],
  ['matches alternations', (factory) => {
    assert.deepEqual(triples(factory.compile([same('cat|dog')]), 'hotdog catalog'), [[0, 3, 6], [0, 7, 10]]);
  }],
  ['takes greedy repetition to its longest extent', (factory) => {
    const matcher = factory.compile([same('a+'), same('x[0-9]{2,3}')]);
    assert.deepEqual(triples(matcher, 'caaab aa x1 x12 x1234'), [[0, 1, 4], [0, 6, 8], [1, 12, 15], [1, 16, 20]]);
  }],
  ["keeps one pattern's matches disjoint, resuming after the previous end", (factory) => {
    assert.deepEqual(triples(factory.compile([same('aa')]), 'aaaaa'), [[0, 0, 2], [0, 2, 4]]);
    assert.deepEqual(triples(factory.compile([same('aba')]), 'ababa'), [[0, 0, 3]]);
  }],
  ['finds a match hidden inside a skipped overlapping candidate', (factory) => {
    assert.deepEqual(triples(factory.compile([same('ab|bcd|d'), same('c')]), 'abcd'), [[0, 0, 2], [1, 2, 3], [0, 3, 4]]);
  }],
  ['returns nothing when nothing matches', (factory) => {
    assert.deepEqual(triples(factory.compile([same('zebra')]), 'no stripes here'), []);
  }],
  ['returns nothing for empty hay', (factory) => {
    const matcher = factory.compile([same('a')]);
    assert.deepEqual(triples(matcher, new Uint8Array(0), true), []);
    assert.deepEqual(triples(matcher, new Uint8Array(0), false), []);
  }],
  ['gives fresh results on every scan', (factory) => {
    const matcher = factory.compile([same('x')]);
    assert.deepEqual(triples(matcher, 'x x x'), [[0, 0, 1], [0, 2, 3], [0, 4, 5]]);
    assert.deepEqual(triples(matcher, '  x'), [[0, 2, 3]]);
  }],
  ['scans megabytes with more matches than any initial buffer', (factory) => {
    const line = 'the quick brown fox jumps over the lazy dog\n';
    const lines = 100_000;
    const matcher = factory.compile([same('fox'), { hyperscan: 'dog$', js: `dog${LINE_END}`, caseless: false }]);
    const found = triples(matcher, line.repeat(lines));
    assert.equal(found.length, 2 * lines);
    for (let i = 0; i < lines; i++) {
      const base = i * line.length;
      assert.deepEqual(found[2 * i], [0, base + 16, base + 19]);
      assert.deepEqual(found[2 * i + 1], [1, base + 40, base + 43]);
    }
  }],
  ['test() sets the bit of each pattern that occurs, and only those', (factory) => {
    const matcher = factory.compile([same('foo'), same('ba[rz]', true), same('zzz')]);
    assert.equal(matcher.test(new TextEncoder().encode('a foo, a BAZ'), true), 0b011);
    assert.equal(matcher.test(Uint8Array.from([0xff, 0x7a, 0x7a, 0x7a]), false), 0b100);
    assert.equal(matcher.test(new Uint8Array(0), true), 0);
  }],
  ['test() answers for up to 31 patterns and returns -1 beyond', (factory) => {
    const tagged = (count: number) => factory.compile(Array.from({ length: count }, (_, i) => same(`<${i}>`)));
    const hay = new TextEncoder().encode('<30> <0> <31>');
    assert.equal(tagged(MAX_TEST_PATTERNS).test(hay, true), (1 << 30) | 1);
    assert.equal(tagged(MAX_TEST_PATTERNS + 1).test(hay, true), -1);
    assert.deepEqual(triples(tagged(MAX_TEST_PATTERNS + 1), hay).map(([pattern]) => pattern), [30, 0, 31]);
  }],
  ['test() agrees with scan() on seeded random patterns and hay', (factory) => {
    const gen = new SpecGenerator(random(0x7e57));
    let compiled = 0;
    for (let set = 0; set < 200; set++) {
      const patterns = gen.patterns(4);
      if (!factory.supports(patterns).ok) continue;
      const matcher = factory.compile(patterns);
      compiled++;
      for (let i = 0; i < 5; i++) {
        const utf8 = gen.int(1, 10) <= 7;
        const hay = gen.hay(gen.int(0, 200), !utf8);
        assert.doesNotThrow(() => triples(matcher, hay, utf8), `patterns ${JSON.stringify(patterns)}`);
      }
    }
    assert.ok(compiled >= 100, `${factory.engine} took only ${compiled} of 200 random sets`);
  }],
  ['rejects an invalid pattern with PATTERN_INVALID naming it', (factory) => {
    assert.throws(
      () => factory.compile([same('fine'), same('a(')]),
      (err: unknown) => {
        assert.ok(err instanceof QuarryError, String(err));
        assert.equal(err.code, 'PATTERN_INVALID');
        assert.equal(err.details['index'], 1);
        assert.ok(err.message.length > 0);
        return true;
      },
    );
  }],
];

export const matcherContractTests: readonly string[] = cases.map(([name]) => name);

export function runMatcherContract(options: MatcherContractOptions): void {
  const skipped = new Map<string, string>();
  for (const { reason, tests } of options.skip ?? []) {
    for (const name of tests) {
      assert.ok(matcherContractTests.includes(name), `skip names an unknown contract test: ${name}`);
      skipped.set(name, reason);
    }
  }
  describe(`matcher contract: ${options.name}`, () => {
    for (const [name, body] of cases) {
      const reason = skipped.get(name);
      it(name, reason === undefined ? {} : { skip: reason }, () => body(options.factory));
    }
  });
}
