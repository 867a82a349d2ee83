/** The JS translation keeps RE2's meaning (Sourcegraph's flags) where JS's own defaults differ. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planRegex } from '../../src/regex/index.js';
import { jsRegExp } from './helpers.js';

function matches(source: string, text: string, caseSensitive = true): boolean {
  return jsRegExp(planRegex(source, { caseSensitive }).spec).test(text);
}

function firstMatch(source: string, text: string): string | undefined {
  return jsRegExp(planRegex(source, { caseSensitive: true }).spec).exec(text)?.[0];
}

test('$ is a line end before \\n only, never before \\r', () => {
  assert.equal(matches('foo$', 'foo\r\n'), false);
  assert.equal(matches('foo$', 'foo\r'), false);
  assert.equal(matches('foo$', 'foo\u2028'), false);
  assert.equal(matches('foo$', 'foo\nbar'), true);
  assert.equal(matches('foo$', 'x foo'), true);
});

test('^ is a line start after \\n only', () => {
  assert.equal(matches('^foo', 'x\rfoo'), false);
  assert.equal(matches('^foo', 'x\nfoo'), true);
  assert.equal(matches('^foo', 'foo'), true);
  assert.equal(matches('^$', 'a\n\nb'), true);
  assert.equal(matches('^$', 'a\r\rb'), false);
});

test('\\A and \\z anchor the whole text; (?-m) turns ^ and $ into them', () => {
  assert.equal(matches('\\Afoo', 'x\nfoo'), false);
  assert.equal(matches('\\Afoo', 'foo\n'), true);
  assert.equal(matches('foo\\z', 'foo\n'), false);
  assert.equal(matches('foo\\z', 'a\nfoo'), true);
  assert.equal(matches('(?-m)^foo', 'x\nfoo'), false);
  assert.equal(matches('(?-m)foo$', 'foo\n'), false);
});

test('. matches \\r but not \\n unless (?s)', () => {
  assert.equal(matches('a.b', 'a\rb'), true);
  assert.equal(matches('a.b', 'a\nb'), false);
  assert.equal(matches('a.b', 'a\u2028b'), true);
  assert.equal(matches('(?s)a.b', 'a\nb'), true);
  assert.equal(firstMatch('.', '\u{1f600}'), '\u{1f600}');
});

test('Perl classes are ASCII and \\s leaves out \\v; POSIX [:space:] keeps it', () => {
  assert.equal(matches('\\s', '\v'), false);
  assert.equal(matches('\\s', '\u00a0'), false);
  for (const c of ['\t', '\n', '\f', '\r', ' ']) assert.equal(matches('\\s', c), true, JSON.stringify(c));
  assert.equal(matches('\\S', '\v'), true);
  assert.equal(matches('[[:space:]]', '\v'), true);
  assert.equal(matches('\\w', 'é'), false);
  assert.equal(matches('\\d', '\u0663'), false);
  assert.equal(matches('[[:^alpha:]]', 'é'), true);
  assert.equal(matches('[[:^alpha:]]', 'a'), false);
  assert.equal(matches('[[:punct:]]', '`'), true);
});

test('word boundaries are ASCII, also in case-insensitive searches', () => {
  assert.equal(matches('x\\b', 'xé'), true);
  assert.equal(matches('\\bfoo\\b', 'éfooé'), true);
  assert.equal(matches('\\bfoo\\b', '_foo'), false);
  assert.equal(matches('s\\b', 's\u017f', false), true);
  assert.equal(matches('\\bFOO\\b', 'a foo b', false), true);
});

test('case-insensitive scopes fold Unicode as RE2 does, and only inside the scope', () => {
  assert.equal(matches('a(?i)b', 'aB'), true);
  assert.equal(matches('a(?i)b', 'AB'), false);
  assert.equal(matches('(?i:k)', '\u212a'), true);
  assert.equal(matches('(?i:s)x', '\u017fx'), true);
  assert.equal(matches('(?i:é)x', 'Éx'), true);
  assert.equal(matches('(?i)[^k]', '\u212a'), false);
  assert.equal(matches('(?i)[^k]', 'K'), false);
  assert.equal(matches('(?i:\\w)x', '\u212ax'), true);
  assert.equal(matches('(?i)\\W', '\u212a'), false);
  for (const c of ['\u01c4', '\u01c5', '\u01c6']) assert.equal(matches('(?i:\u01c5)x', `${c}x`), true, c);
  assert.equal(matches('(?i:\\p{Lu})x', 'ax'), true);
  assert.equal(matches('(?i:\\p{Greek})x', '\u2126x'), true);
  assert.equal(matches('Foo', 'fOO', false), true);
  assert.equal(matches('(?-i:F)oo', 'fOO', false), false);
});

test('escapes and syntax characters come out valid for the u flag', () => {
  assert.equal(firstMatch('\\x41\\x{263a}\\t', 'A\u263a\t'), 'A\u263a\t');
  assert.equal(firstMatch('a]b}c/d', 'a]b}c/d'), 'a]b}c/d');
  assert.equal(firstMatch('\\-\\!\\#\\ \\~', '-!# ~'), '-!# ~');
  assert.equal(firstMatch('[\\]\\[\\^\\-\\\\]+', ']-[^\\'), ']-[^\\');
  assert.equal(firstMatch('\\a\\f\\v\\r', '\x07\f\v\r'), '\x07\f\v\r');
  assert.equal(firstMatch('\\Q(a|b)\\E', '(a|b)'), '(a|b)');
});

test('groups, backreferences, look-around, properties and counted repetition', () => {
  assert.equal(firstMatch('(?P<y>\\d{2})-\\1', '12-13 14-14'), '14-14');
  assert.equal(firstMatch('(?<y>a)(b)\\2', 'abb'), 'abb');
  assert.equal(firstMatch('(?<=\\$)\\d+', 'a1 $42'), '42');
  assert.equal(firstMatch('(?<!\\$)\\b\\d+', '$42 7'), '7');
  assert.equal(firstMatch('a(?=b)', 'ac ab'), 'a');
  assert.equal(firstMatch('a(?!b)\\w', 'ab ac'), 'ac');
  assert.equal(firstMatch('\\p{Greek}+', 'abc αβγ'), 'αβγ');
  assert.equal(firstMatch('\\PL+', 'ab12'), '12');
  assert.equal(firstMatch('\\p{^L}', 'ab-'), '-');
  assert.equal(matches('\\pC', '\u0378'), false);
  assert.equal(matches('\\PC', '\u0378'), true);
  assert.equal(firstMatch('a{2,3}', 'aaaa'), 'aaa');
  assert.equal(firstMatch('a{2,3}?', 'aaaa'), 'aa');
  assert.equal(firstMatch('(?:ab)+?', 'abab'), 'ab');
  assert.equal(firstMatch('x*', 'y'), '');
});

test('repetitions of zero-width assertions stay valid JS', () => {
  assert.equal(firstMatch('^*a', 'ba'), 'a');
  assert.equal(firstMatch('\\b+a', 'b a'), 'a');
  assert.equal(firstMatch('(?:$)?a', 'a'), 'a');
});
