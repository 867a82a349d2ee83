/** RE2 syntax accepted and rejected by the parser, with the error's position and wording. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { planRegex } from '../../src/regex/index.js';

function rejects(source: string, position: number, problem: RegExp): void {
  assert.throws(
    () => planRegex(source, { caseSensitive: true }),
    (err: unknown) => {
      assert.ok(isQuarryError(err, 'PATTERN_INVALID'), `${source}: ${String(err)}`);
      assert.equal(err.details['position'], position, `${source}: ${err.message}`);
      assert.match(err.message, problem, source);
      assert.ok(err.message.startsWith('regexp: ') && err.message.endsWith(` at position ${position} in /${source}/`), err.message);
      return true;
    },
  );
}

const js = (source: string): string => planRegex(source, { caseSensitive: true }).spec.js;

test('the error message names the problem, the position and the pattern', () => {
  assert.throws(() => planRegex('ab(c', { caseSensitive: true }), { message: 'regexp: missing closing ): `(c` at position 2 in /ab(c/' });
});

test('repetition errors', () => {
  rejects('a**', 1, /invalid nested repetition operator: `\*\*`/);
  rejects('a*+', 1, /possessive repetition is not supported/);
  rejects('a{2}{3}', 1, /invalid nested repetition operator/);
  rejects('a??+', 1, /invalid nested repetition operator/);
  rejects('*a', 0, /missing argument to repetition operator: `\*`/);
  rejects('a|+', 2, /missing argument/);
  rejects('(?i)*', 4, /missing argument/);
  rejects('a{1001}', 1, /invalid repeat count/);
  rejects('a{2,1}', 1, /invalid repeat count/);
  rejects('(a{100}){11}', 8, /invalid repeat count: `\{11\}` nests repetitions over 1000/);
  assert.equal(js('(a{100}){10}'), '(a{100}){10}');
  assert.equal(js('a{1000}'), 'a{1000}');
});

test('a brace that does not form a repetition is a literal', () => {
  assert.equal(js('a{,5}'), 'a\\{,5\\}');
  assert.equal(js('a{'), 'a\\{');
  assert.equal(js('x{2}{'), 'x{2}\\{');
  assert.equal(js('a{2,}b{3}c{1,2}?'), 'a{2,}b{3}c{1,2}?');
});

test('group errors', () => {
  rejects('abc)', 3, /unexpected \)/);
  rejects('x(?i', 1, /missing closing \)/);
  rejects('(?x)a', 0, /invalid or unsupported Perl syntax: `\(\?x`/);
  rejects('(?#c)', 0, /unsupported Perl syntax/);
  rejects('(?>a)', 0, /unsupported Perl syntax/);
  rejects('(?P=n)', 0, /unsupported Perl syntax/);
  rejects('(?i-)a', 0, /unsupported Perl syntax: `\(\?i-\)`/);
  rejects('(?-)a', 0, /unsupported Perl syntax/);
  rejects('(?<a-b>x)', 0, /invalid named capture/);
  rejects('(?P<n>a)(?P<n>b)', 8, /duplicate capture group name: `n`/);
  rejects(`${'('.repeat(251)}${')'.repeat(251)}`, 250, /nests groups deeper than 250/);
});

test('class errors', () => {
  rejects('x[a', 1, /missing closing \]: `\[a`/);
  rejects('[]', 0, /missing closing \]/);
  rejects('[z-a]', 1, /invalid character class range: `z-a`/);
  rejects('[[:foo:]]', 1, /invalid character class range: `\[:foo:\]`/);
  rejects('\\p{Foo}', 0, /invalid character class range: `\\p\{Foo\}`/);
  rejects('\\p{Greek', 0, /invalid character class range/);
});

test('escape errors', () => {
  for (const escape of ['\\C', '\\Z', '\\G', '\\e', '\\k<n>', '\\E', '\\i']) rejects(escape, 0, /invalid escape sequence/);
  rejects('a\\', 1, /trailing backslash/);
  rejects('\\x{110000}', 0, /invalid escape sequence/);
  rejects('\\x{D800}', 0, /invalid escape sequence/);
  rejects('\\xG1', 0, /invalid escape sequence/);
  rejects('[\\b]', 1, /invalid escape sequence/);
  rejects('(a)\\2', 3, /invalid backreference \\2 \(1 groups\)/);
  rejects('ab\ud800', 2, /lone surrogate/);
});

test('classes: a leading ] and a - that cannot form a range are members', () => {
  assert.equal(js('[]a]'), '[\\]a]');
  assert.equal(js('[^]a]'), '[^\\]a]');
  assert.equal(js('[a-]'), '[\\-a]');
  assert.equal(js('[-a]'), '[\\-a]');
  assert.equal(js('[a-c-e]'), '[\\-a-ce]');
  assert.equal(js('[a[]'), '[\\[a]');
  assert.equal(js('[\\d\\-x]'), '[\\-0-9x]');
});

test('octal escapes follow RE2; a single digit 1-9 is a backreference', () => {
  assert.equal(js('\\0'), '\\x00');
  assert.equal(js('\\012'), '\\n');
  assert.equal(js('\\12'), '\\n');
  assert.equal(js('\\101'), 'A');
  assert.equal(js('(a)\\1'), '(a)(?:\\1)');
  assert.equal(js('(a)\\18'), '(a)(?:\\1)8');
  assert.equal(js('(a)(b)(c)(d)(e)(f)(g)(h)\\8'), '(a)(b)(c)(d)(e)(f)(g)(h)(?:\\8)');
  assert.equal(js('[\\0-\\11]'), '[\\x00-\\t]');
});

test('\\Q…\\E quotes text up to \\E or the end; a repetition applies to its last character', () => {
  assert.equal(js('\\Q.*[\\E+'), '\\.\\*\\[+');
  assert.equal(js('\\Qa|b'), 'a\\|b');
});

test('flags scope to the enclosing group and carry across alternatives', () => {
  assert.equal(js('a(?i)b|c'), 'a[Bb]|[Cc]');
  assert.equal(js('(?:a(?i)b)c'), 'a[Bb]c');
  assert.equal(js('(?i:a(?-i)b)c'), '[Aa]bc');
  assert.equal(js('(?s:.).'), '[\\s\\S][^\\n]');
  assert.equal(js('(?m)^'), '(?<![^\\n])');
  assert.equal(js('(?-m)^a$'), '(?<![\\s\\S])a(?![\\s\\S])');
  assert.equal(js('(?U)a+b+?'), 'a+?b+');
  assert.equal(js('(?)a'), 'a');
});
