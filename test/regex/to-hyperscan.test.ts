/**
 * The Hyperscan dialect (UTF8 | MULTILINE, no DOTALL, no UCP): exact sources, and null exactly for
 * what Hyperscan cannot run the same way: backreferences, look-around, Unicode properties,
 * embedded anchors and classes that match nothing.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planRegex } from '../../src/regex/index.js';

const hs = (source: string, caseSensitive = true): string | null => planRegex(source, { caseSensitive }).spec.hyperscan;

test('plain constructs pass through with PCRE spelling', () => {
  assert.equal(hs('foo.*bar'), 'foo.*bar');
  assert.equal(hs('^foo$'), '^foo$');
  assert.equal(hs('\\Aa|b\\z'), '\\Aa|b\\z');
  assert.equal(hs('(?:a|b)+c{2,}?'), '(?:a|b)+c{2,}?');
  assert.equal(hs('(a)(?:b)(?P<n>c)'), '(?:a)b(?:c)');
  assert.equal(hs('a|'), 'a|');
});

test('classes are spelled out, so PCRE\'s own \\s, \\w, \\v never appear', () => {
  assert.equal(hs('\\s\\S\\w\\W\\d\\D'), '[\\x09\\x0a\\x0c\\x0d ][^\\x09\\x0a\\x0c\\x0d ][0-9A-Z_a-z][^0-9A-Z_a-z][0-9][^0-9]');
  assert.equal(hs('\\x{263a}\\v\\t'), '\\x{263a}\\x0b\\x09');
  assert.equal(hs('[[:punct:]]'), '[!-/:-@\\[-`{-~]');
  assert.equal(hs('[\\^\\-\\]\\[\\\\]'), '[\\-\\[-\\^]');
  assert.equal(hs('\\Q^$.|?*+()[]{}\\E'), '\\^\\$\\.\\|\\?\\*\\+\\(\\)\\[\\]\\{\\}');
});

test('dots: . without (?s), any code point with it', () => {
  assert.equal(hs('.'), '.');
  assert.equal(hs('[^\\n]'), '.');
  assert.equal(hs('(?s).'), '[\\s\\S]');
  assert.equal(hs('\\p{Any}'), '[\\s\\S]');
});

test('case: always spelled out for Hyperscan, never HS_FLAG_CASELESS (it runs two to three times slower)', () => {
  const caseless = planRegex('(?i)é', { caseSensitive: true }).spec;
  assert.deepEqual([caseless.hyperscan, caseless.caseless, caseless.hyperscanCaseless], ['[\\x{c9}\\x{e9}]', true, false]);
  assert.equal(hs('(?i:é)x'), '[\\x{c9}\\x{e9}]x');
  assert.equal(hs('(?i:k)X'), '[Kk\\x{212a}]X');
  assert.equal(hs('\\bfoo', false), '\\b[Ff][Oo][Oo]');
});

test('repeats Hyperscan refuses are simplified to what they mean', () => {
  assert.equal(hs('(?:^)*a'), 'a');
  assert.equal(hs('\\b+a'), '\\ba');
  assert.equal(hs('x{0}a'), 'a');
});

test('anchors only at the edges; \\A may precede ^ and end anchors may follow $', () => {
  assert.equal(hs('\\A^a'), '\\A^a');
  assert.equal(hs('a$\\z'), 'a$\\z');
  assert.equal(hs('(?:^a|^b)c$'), '(?:^a|^b)c$');
  for (const embedded of ['a\\n^b', 'a$\\nb', '^^a', '\\b^a', 'a$\\b', '(?:^|x)^a', '(?:a$)+', '(?:a|$){0,2}']) {
    assert.equal(hs(embedded), null, embedded);
  }
});

test('null exactly for backreferences, look-around, Unicode properties and empty classes', () => {
  for (const source of ['(a)\\1', '(?=a)', '(?!a)b', '(?<=a)b', '(?<!a)b', '\\pL', '\\p{Greek}', '[^\\PN]', '\\P{Any}', '[^\\x00-\\x{10FFFF}]']) {
    assert.equal(hs(source), null, source);
  }
  for (const source of ['a', '[a-z]+', '\\x{10FFFF}', '(?i)\\w+', '[[:alpha:]]', '(?s)a.b', '\\Bx', '(?U)a*', '(?:)']) {
    assert.notEqual(hs(source), null, source);
  }
});
