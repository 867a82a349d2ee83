/** planRegex / planLiteral: the case mode chosen, the literal shortcut, matchesEmpty and refusals. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { planLiteral, planRegex } from '../../src/regex/index.js';
import { jsRegExp } from './helpers.js';

test('a case-insensitive search is one caseless JS pattern; Hyperscan gets the cases spelled out', () => {
  const { spec } = planRegex('Foo.*Bar', { caseSensitive: false });
  assert.deepEqual(spec, { hyperscan: '[Ff][Oo][Oo].*[Bb][Aa][Rr]', js: 'Foo[^\\n]*Bar', caseless: true, hyperscanCaseless: false });
  assert.equal(planRegex('(?i)foo', { caseSensitive: true }).spec.caseless, true);
  assert.equal(planRegex('123', { caseSensitive: false }).spec.caseless, true);
  assert.equal(planRegex('foo', { caseSensitive: true }).spec.caseless, false);
});

test('mixed case scopes spell the folded letters out in both dialects', () => {
  const { spec } = planRegex('(?-i:F)oo', { caseSensitive: false });
  assert.deepEqual(spec, { hyperscan: 'F[Oo][Oo]', js: 'F[Oo][Oo]', caseless: false, hyperscanCaseless: false });
  assert.equal(planRegex('a(?i)b', { caseSensitive: true }).spec.js, 'a[Bb]');
  assert.equal(planRegex('(?i)[a-c]x(?-i)y', { caseSensitive: true }).spec.js, '[A-Ca-c][Xx]y');
});

test('a word boundary keeps the pattern case-sensitive with spelled-out letters', () => {
  const { spec } = planRegex('\\bfoo\\b', { caseSensitive: false });
  assert.deepEqual(spec, { hyperscan: '\\b[Ff][Oo][Oo]\\b', js: '\\b[Ff][Oo][Oo]\\b', caseless: false, hyperscanCaseless: false });
  // Under `iu` JS would count U+017F as a word character; RE2 does not.
  assert.equal(jsRegExp(spec).test('\u017ffoo'), true);
});

test('a folded backreference needs the flag; mixed with case-sensitive parts it is refused', () => {
  assert.equal(planRegex('(?i)(a)\\1', { caseSensitive: true }).spec.caseless, true);
  assert.throws(
    () => planRegex('(?i:(a)\\1)B', { caseSensitive: true }),
    (err: unknown) => isQuarryError(err, 'PATTERN_UNSUPPORTED') && /backreference/.test(err.message),
  );
});

test('literal is the text of a plain pattern, to be matched with spec.caseless', () => {
  assert.equal(planRegex('foo', { caseSensitive: true }).literal, 'foo');
  assert.equal(planRegex('f\\.o\\x41(?:b)(c)', { caseSensitive: true }).literal, 'f.oAbc');
  assert.equal(planRegex('Foo', { caseSensitive: false }).literal, 'Foo');
  assert.equal(planRegex('(?i)Foo', { caseSensitive: true }).literal, 'Foo');
  assert.equal(planRegex('(?i:F)oo', { caseSensitive: true }).literal, null);
  assert.equal(planRegex('f.o', { caseSensitive: true }).literal, null);
  assert.equal(planRegex('fo+', { caseSensitive: true }).literal, null);
  assert.equal(planRegex('^foo', { caseSensitive: true }).literal, null);
  assert.equal(planRegex('a|b', { caseSensitive: true }).literal, null);
  assert.equal(planRegex('', { caseSensitive: true }).literal, '');
});

test('planLiteral searches for the text itself', () => {
  const plan = planLiteral('a.b*(c)', { caseSensitive: true });
  assert.equal(plan.literal, 'a.b*(c)');
  assert.equal(plan.spec.js, 'a\\.b\\*\\(c\\)');
  assert.equal(plan.spec.hyperscan, 'a\\.b\\*\\(c\\)');
  assert.equal(jsRegExp(plan.spec).test('xa.b*(c)y'), true);
  assert.equal(jsRegExp(plan.spec).test('aab*(c)'), false);
  const caseless = planLiteral('Naïve', { caseSensitive: false });
  assert.equal(caseless.spec.caseless, true);
  assert.equal(jsRegExp(caseless.spec).test('NAÏVE'), true);
  assert.throws(() => planLiteral('a\udc00', { caseSensitive: true }), (err: unknown) => isQuarryError(err, 'PATTERN_INVALID'));
});

test('matchesEmpty says whether the empty string can match', () => {
  for (const source of ['', 'a*', 'a?', '^', '\\b', '(?:a|)', 'a{0}', '(?=a)', 'x*(?:y|z?)']) {
    assert.equal(planRegex(source, { caseSensitive: true }).matchesEmpty, true, source);
  }
  for (const source of ['a', 'a+', '.', '[^a]', 'a{1,2}', '^$x', '(?:a|b)c*']) {
    assert.equal(planRegex(source, { caseSensitive: true }).matchesEmpty, false, source);
  }
});

test('an ASCII-only Hyperscan form drops non-ASCII class members, only where it differs', () => {
  const words = planRegex('\\w+x', { caseSensitive: false });
  assert.equal(words.spec.hyperscan, '[0-9A-Z_a-z\\x{17f}\\x{212a}]+[Xx]');
  assert.equal(words.asciiHyperscan, '[0-9A-Z_a-z]+[Xx]');
  assert.equal(planRegex('\\w+x', { caseSensitive: true }).asciiHyperscan, null);
  assert.equal(planRegex('a.b', { caseSensitive: false }).asciiHyperscan, null);
  assert.equal(planRegex('[^a-z]', { caseSensitive: false }).asciiHyperscan, '[\\x00-@\\[-`{-\\x7f]');
  // A class with no ASCII member is left alone: on ASCII text it simply never matches.
  assert.equal(planRegex('[é]x', { caseSensitive: false }).asciiHyperscan, null);
  assert.equal(planRegex('(a)\\1', { caseSensitive: false }).asciiHyperscan, null);
});
