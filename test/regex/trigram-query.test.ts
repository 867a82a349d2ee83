/** Canonical trigram queries: what a regex requires of every document that contains a match. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trigramQueryToString } from '../../src/model/trigram.js';
import { planLiteral, planRegex } from '../../src/regex/index.js';

const query = (source: string, caseSensitive = true): string => trigramQueryToString(planRegex(source, { caseSensitive }).trigrams);

test('literals require all their trigrams, together in byte order; shorter ones require nothing', () => {
  assert.equal(query('abc'), '"abc"');
  assert.equal(query('abcd'), '(near "abc" "bcd")');
  assert.equal(query('ab'), '+');
  assert.equal(query(''), '+');
  assert.equal(query('\\x{263a}'), '"\\xe2\\x98\\xba"');
  assert.equal(query('αβ'), '(near "\\xce\\xb1\\xce" "\\xb1\\xce\\xb2")');
});

test('concatenation across .* ANDs both sides', () => {
  assert.equal(query('foo.*bar'), '(and "foo" "bar")');
  assert.equal(query('x.*'), '+');
});

test('alternation ORs, and crosses with what follows', () => {
  assert.equal(query('foo|bar'), '(or "foo" "bar")');
  assert.equal(query('foo|b'), '+');
  assert.equal(query('(abc|def)ghi'), '(or (near "abc" "bcg" "cgh" "ghi") (near "def" "efg" "fgh" "ghi"))');
  assert.equal(query('a[bc]d'), '(or "abd" "acd")');
  assert.equal(query('ab(?:cd)?ef'), '(or (near "abc" "bcd" "cde" "def") (near "abe" "bef"))');
  assert.equal(query('[ab]+\\.[cd]+'), '(or "a.c" "a.d" "b.c" "b.d")');
});

test('repetition keeps what every repetition guarantees', () => {
  assert.equal(query('a+'), '+');
  assert.equal(query('(?:abc)+'), '"abc"');
  // A near group keeps a repeated trigram: each arg stands for its byte offset.
  assert.equal(query('(?:abc){2}'), '(near "abc" "bca" "cab" "abc")');
  assert.equal(query('(?:abc){3,}'), '(and (near "abc" "bca" "cab" "abc") (near "bca" "cab" "abc"))');
  assert.equal(query('(?:abc)*def'), '"def"');
  assert.equal(query('(?:abc)?def'), '"def"');
  assert.equal(query('abc?'), '+');
  assert.equal(query('a(b|c)*d'), '+');
  assert.equal(query('[a-z]{3}'), '+');
});

test('case-sensitive patterns ask for exact-case trigrams; case-insensitive ones for every variant', () => {
  assert.equal(query('ABC'), '"ABC"');
  assert.equal(query('abc', false), '(or "abc" "abC" "aBc" "aBC" "Abc" "AbC" "ABc" "ABC")');
  assert.equal(query('(?i)abc'), query('abc', false));
  assert.equal(query('a(?i)bc'), '(or "abc" "abC" "aBc" "aBC")');
  assert.equal(query('[aA]bc'), '(or "Abc" "abc")');
  assert.equal(query('(?i)éa'), '(or "\\xc3\\x89a" "\\xc3\\x89A" "\\xc3\\xa9a" "\\xc3\\xa9A")');
  assert.equal(query('éa'), '"\\xc3\\xa9a"');
  // KELVIN SIGN folds to k under (?i), so its bytes are an alternative too.
  assert.match(query('kit', false), /^\(or "kit" .*"KIT" \(near "\\xe2\\x84\\xaa" /);
});

test('anchors, look-around and backreferences', () => {
  assert.equal(query('^foo$'), '"foo"');
  assert.equal(query('\\bfoo\\b'), '"foo"');
  assert.equal(query('(?=abc)x'), '"abc"');
  assert.equal(query('(?<=abc)x'), '"abc"');
  assert.equal(query('(?!abc)x'), '+');
  assert.equal(query('(foo)\\1'), '"foo"');
  assert.equal(query('x\\n^y'), '"x\\x0ay"');
});

test('classes: small ones enumerate, large ones and properties match anything, empty ones nothing', () => {
  assert.equal(query('fo[o-q]'), '(or "foo" "fop" "foq")');
  assert.equal(query('foo\\pLbar'), '(and "foo" "bar")');
  assert.equal(query('[^\\x00-\\x{10FFFF}]'), '-');
  assert.equal(query('x[^\\x00-\\x{10FFFF}]|abc'), '"abc"');
  assert.equal(query('\\d+\\.\\d+'), '+');
});

test('planLiteral escapes nothing away: syntax characters are text', () => {
  assert.equal(trigramQueryToString(planLiteral('a.b*', { caseSensitive: true }).trigrams), '(near "a.b" ".b*")');
});

test('long patterns plan in about linear time', () => {
  const timeFor = (n: number): number => {
    const text = Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
    const words = Array.from({ length: n / 10 }, (_, i) => `w${i.toString(36)}x`).join('|');
    const start = performance.now();
    planLiteral(text, { caseSensitive: false });
    planRegex(words, { caseSensitive: true });
    return performance.now() - start;
  };
  timeFor(2000);
  // Five times the input: linear planning takes about five times as long, quadratic twenty-five.
  const small = timeFor(10000);
  const large = timeFor(50000);
  assert.ok(large < 12 * small + 50, `10k: ${small.toFixed(0)} ms, 50k: ${large.toFixed(0)} ms`);
});
