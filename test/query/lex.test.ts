import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lex, type Token } from '../../src/query/lex.js';
import { assertQueryError } from './helpers.js';

function kinds(text: string): string[] {
  return lex(text).map((token) => token.kind);
}

function only(text: string): Token {
  const tokens = lex(text);
  assert.equal(tokens.length, 1, `${text} lexed to ${JSON.stringify(tokens)}`);
  return tokens[0]!;
}

describe('lex', () => {
  it('gives every token its source span', () => {
    const tokens = lex('repo:foo (a OR "b c") -file:x /re/');
    assert.deepEqual(
      tokens.map((token) => [token.kind, token.start, token.end]),
      [['filter', 0, 8], ['lparen', 9, 10], ['word', 10, 11], ['or', 12, 14], ['quoted', 15, 20], ['rparen', 20, 21], ['filter', 22, 29], ['regexp', 30, 34]],
    );
  });

  it('decodes escapes in double and single quotes and keeps unknown escapes', () => {
    assert.deepEqual(only(String.raw`"a\"b\\c\nd\te\'f\qg"`), {
      kind: 'quoted', value: 'a"b\\c\nd\te\'f\\qg', text: String.raw`"a\"b\\c\nd\te\'f\qg"`, start: 0, end: 21,
    });
    assert.equal((only(String.raw`'it\'s'`) as { value: string }).value, "it's");
    assert.equal((only(`"with  spaces"`) as { value: string }).value, 'with  spaces');
  });

  it('reads /…/ as a regexp only when the whole token is delimited', () => {
    assert.deepEqual(only('/foo.*bar/'), { kind: 'regexp', value: 'foo.*bar', text: '/foo.*bar/', start: 0, end: 10 });
    assert.equal((only('/a b/') as { value: string }).value, 'a b');
    assert.equal((only(String.raw`/a\/b/`) as { value: string }).value, 'a/b');
    assert.equal((only(String.raw`/a\\/`) as { value: string }).value, String.raw`a\\`);
    assert.equal((only(String.raw`/\d+/`) as { value: string }).value, String.raw`\d+`);
    assert.deepEqual(kinds('(/x/)'), ['lparen', 'regexp', 'rparen']);
    assert.deepEqual(lex('/usr/bin /api //').map((t) => [t.kind, (t as { text: string }).text]), [['word', '/usr/bin'], ['word', '/api'], ['word', '//']]);
    assert.deepEqual(kinds('/foo/bar'), ['word']);
  });

  it('recognises and/or/not in any case, only as whole words', () => {
    assert.deepEqual(kinds('a AND b Or c nOt d'), ['word', 'and', 'word', 'or', 'word', 'not', 'word']);
    assert.deepEqual(kinds('android order nothing and( -not'), ['word', 'word', 'word', 'word', 'word']);
    assert.deepEqual(kinds('(a or b)'), ['lparen', 'word', 'or', 'word', 'rparen']);
  });

  it('keeps parentheses opened inside a word, and escaped spaces, in the word', () => {
    assert.deepEqual(lex('foo(bar) () foo\\ bar (x)').map((t) => [t.kind, (t as { text?: string }).text]), [
      ['word', 'foo(bar)'], ['word', '()'], ['word', 'foo\\ bar'], ['lparen', undefined], ['word', 'x'], ['rparen', undefined],
    ]);
  });

  it('reads field:value filters with negation, quoting and case-insensitive names', () => {
    assert.deepEqual(only('-file:x'), { kind: 'filter', field: 'file', negated: true, value: 'x', quoted: false, valueStart: 6, start: 0, end: 7 });
    assert.deepEqual(only('Repo:"a b"'), { kind: 'filter', field: 'repo', negated: false, value: 'a b', quoted: true, valueStart: 5, start: 0, end: 10 });
    assert.equal((lex('(repo:a)')[1] as { value: string }).value, 'a');
    assert.deepEqual(lex('repo:(a|b))').map((t) => [t.kind, (t as { value?: string }).value]), [['filter', '(a|b)'], ['rparen', undefined]]);
    assert.deepEqual(only('repo: '), { kind: 'filter', field: 'repo', negated: false, value: '', quoted: false, valueStart: 5, start: 0, end: 5 });
    assert.deepEqual(only('file:/src/'), { kind: 'filter', field: 'file', negated: false, value: '/src/', quoted: false, valueStart: 5, start: 0, end: 10 });
  });

  it('takes unknown name:value for a filter only when the value starts like one', () => {
    assert.equal(only('foo:bar').kind, 'filter');
    assert.equal(only("foo:'bar'").kind, 'filter');
    for (const word of ['std::vector', 'http://example.com', 'C:\\dir', 'host:8080', 'TODO:', 'a.b:c']) {
      assert.equal(only(word).kind, 'word', word);
    }
  });

  it('reports unterminated quotes and regexps at their opening character', () => {
    assertQueryError('"abc', 0, 'unterminated quoted string');
    assertQueryError("foo 'abc", 4, 'unterminated quoted string');
    assertQueryError('"abc\\"', 0, 'unterminated quoted string');
    assertQueryError('repo:"x', 5, 'unterminated quoted string');
    assertQueryError('a /b\\/c', 2, 'unterminated regular expression');
  });
});
