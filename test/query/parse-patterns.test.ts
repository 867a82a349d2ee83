import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery, type PatternExpr } from '../../src/query/index.js';
import { assertQueryError, canonical } from './helpers.js';

function onlyPattern(text: string, defaultPatternType?: 'keyword' | 'standard' | 'literal' | 'regexp'): PatternExpr | null {
  const query = parseQuery(text, defaultPatternType ? { defaultPatternType } : {});
  assert.equal(query.basics.length, 1);
  return query.basics[0]!.pattern;
}

const lit = (value: string, negated = false) => ({ kind: 'atom', value, regexp: false, negated, field: 'default' });
const re = (value: string) => ({ kind: 'atom', value, regexp: true, negated: false, field: 'default' });

describe('parseQuery: keyword patterns (default)', () => {
  it('makes each word a literal atom, ANDed', () => {
    assert.deepEqual(onlyPattern('foo bar'), { kind: 'and', children: [lit('foo'), lit('bar')] });
  });

  it('makes a quoted string one exact atom without its quotes', () => {
    assert.deepEqual(onlyPattern('"foo bar"'), lit('foo bar'));
    assert.deepEqual(onlyPattern('"foo \\"bar\\""'), lit('foo "bar"'));
    assert.deepEqual(onlyPattern("'a\\\\b'"), lit('a\\b'));
  });

  it('makes /…/ a regexp atom', () => {
    assert.deepEqual(onlyPattern('/foo.*bar/'), re('foo.*bar'));
    assert.deepEqual(onlyPattern('x /a\\/b/'), { kind: 'and', children: [lit('x'), re('a/b')] });
  });

  it('reads OR and NOT', () => {
    assert.equal(canonical('foo OR bar'), '(or "foo" "bar")');
    assert.equal(canonical('panic NOT ever'), '(and "panic" (not "ever"))');
    assert.equal(canonical('panic NOT ever'), canonical('panic AND NOT ever'));
  });

  it('keeps escapes of unquoted words verbatim', () => {
    assert.deepEqual(onlyPattern('foo\\ bar'), lit('foo\\ bar'));
  });
});

describe('parseQuery: standard patterns', () => {
  it('joins juxtaposed words into one literal with single spaces', () => {
    assert.deepEqual(onlyPattern('foo bar', 'standard'), lit('foo bar'));
    assert.deepEqual(onlyPattern('foo    bar', 'standard'), lit('foo bar'));
  });

  it('matches quotes literally', () => {
    assert.deepEqual(onlyPattern('"foo bar"', 'standard'), lit('"foo bar"'));
    assert.deepEqual(onlyPattern('say "hi"', 'standard'), lit('say "hi"'));
    assert.deepEqual(onlyPattern('""', 'standard'), lit('""'));
  });

  it('keeps /re/ a regexp and splits on explicit operators', () => {
    assert.deepEqual(onlyPattern('foo /re/ bar', 'standard'), { kind: 'and', children: [lit('foo'), re('re'), lit('bar')] });
    assert.equal(canonical('foo bar and baz', { defaultPatternType: 'standard' }), '(and patterntype:standard "foo bar" "baz")');
    assert.equal(canonical('foo bar or baz qux', { defaultPatternType: 'standard' }), '(and patterntype:standard (or "foo bar" "baz qux"))');
  });

  it('lifts a filter out of the middle of a pattern', () => {
    const [basic] = parseQuery('foo repo:x bar', { defaultPatternType: 'standard' }).basics;
    assert.deepEqual(basic!.pattern, lit('foo bar'));
    assert.equal(basic!.filters.repos[0]!.pattern, 'x');
  });

  it('ends the run at a NOT', () => {
    assert.deepEqual(onlyPattern('a b not c d', 'standard'), { kind: 'and', children: [lit('a b'), lit('c', true), lit('d')] });
  });
});

describe('parseQuery: literal patterns', () => {
  it('takes the whole text between operators verbatim, quotes and slashes included', () => {
    assert.deepEqual(onlyPattern('foo  "bar" /x/', 'literal'), lit('foo  "bar" /x/'));
    assert.deepEqual(onlyPattern('a b or c', 'literal'), { kind: 'or', children: [lit('a b'), lit('c')] });
    assert.deepEqual(onlyPattern('x (a b)', 'literal'), { kind: 'and', children: [lit('x'), lit('a b')] });
  });

  it('joins the text around a filter with one space', () => {
    assert.deepEqual(onlyPattern('foo  x  repo:r bar', 'literal'), lit('foo  x bar'));
  });
});

describe('parseQuery: regexp patterns', () => {
  it('joins juxtaposed words with (.*?)', () => {
    assert.deepEqual(onlyPattern('foo bar', 'regexp'), re('foo(.*?)bar'));
    assert.deepEqual(onlyPattern('a b c', 'regexp'), re('a(.*?)b(.*?)c'));
  });

  it('keeps an escaped space, a delimited regexp and \\n as written', () => {
    assert.deepEqual(onlyPattern('foo\\ bar', 'regexp'), re('foo\\ bar'));
    assert.deepEqual(onlyPattern('/foo bar/', 'regexp'), re('foo bar'));
    assert.deepEqual(onlyPattern('foo\\nbar', 'regexp'), re('foo\\nbar'));
  });

  it('makes a quoted string an exact literal with escapes decoded', () => {
    assert.deepEqual(onlyPattern('"foo bar"', 'regexp'), lit('foo bar'));
    assert.deepEqual(onlyPattern('a "x\\"y" b', 'regexp'), { kind: 'and', children: [re('a'), lit('x"y'), re('b')] });
  });
});

describe('parseQuery: patterntype filter', () => {
  it('overrides the default, in either spelling, wherever it stands', () => {
    assert.deepEqual(onlyPattern('foo bar patterntype:regexp', 'literal'), re('foo(.*?)bar'));
    assert.deepEqual(onlyPattern('patternType:standard foo bar'), lit('foo bar'));
    assert.deepEqual(onlyPattern('foo bar PATTERNTYPE:Literal'), lit('foo bar'));
    assert.deepEqual(onlyPattern('foo bar patterntype:regex'), re('foo(.*?)bar'));
    const query = parseQuery('a or b patterntype:regexp');
    assert.ok(query.basics.every((basic) => basic.filters.patternType === 'regexp'));
  });

  it('defaults to keyword and records the type in every basic query', () => {
    assert.equal(parseQuery('foo').basics[0]!.filters.patternType, 'keyword');
    assert.equal(parseQuery('foo', { defaultPatternType: 'standard' }).basics[0]!.filters.patternType, 'standard');
    assert.equal(parseQuery('foo patterntype:keyword', { defaultPatternType: 'regexp' }).basics[0]!.filters.patternType, 'keyword');
  });
});

describe('parseQuery: content:', () => {
  const content = (value: string, regexp: boolean, negated = false) => ({ kind: 'atom', value, regexp, negated, field: 'content' });

  it('sets an explicit pattern, even one that looks like a filter or an operator', () => {
    assert.deepEqual(onlyPattern('content:"repo:sourcegraph"'), content('repo:sourcegraph', false));
    assert.deepEqual(onlyPattern('content:"query with OR"'), content('query with OR', false));
    assert.deepEqual(onlyPattern('content:"a\\\\b"'), content('a\\b', false));
    assert.deepEqual(onlyPattern('content:x', 'standard'), content('x', false));
  });

  it('is a regexp in regexp mode, quoted or not', () => {
    assert.deepEqual(onlyPattern('content:"a.b c"', 'regexp'), content('a.b c', true));
    assert.deepEqual(onlyPattern('content:a.b', 'regexp'), content('a.b', true));
  });

  it('is negated by -content: and by NOT content:', () => {
    assert.deepEqual(onlyPattern('-content:x'), content('x', false, true));
    assert.deepEqual(onlyPattern('not content:x'), content('x', false, true));
  });

  it('combines with other patterns in order', () => {
    assert.deepEqual(onlyPattern('a content:x b', 'standard'), { kind: 'and', children: [lit('a'), content('x', false), lit('b')] });
  });
});

describe('parseQuery: empty patterns', () => {
  it('gives one basic query without a pattern for an empty or filter-only query', () => {
    assert.equal(onlyPattern(''), null);
    assert.equal(onlyPattern('   '), null);
    assert.equal(onlyPattern('repo:x'), null);
    assert.equal(onlyPattern('context:global'), null);
  });

  it('refuses an empty quoted pattern where quotes delimit', () => {
    assertQueryError('""', 0, 'empty quoted pattern');
    assertQueryError('patterntype:regexp a \'\'', 21, 'empty quoted pattern');
  });
});

describe('parseQuery: parentheses that belong to a pattern', () => {
  it('keeps a balanced group that runs into more pattern text as part of the regex', () => {
    assert.deepEqual(onlyPattern('(get|set)Value', 'regexp'), re('(get|set)Value'));
    assert.deepEqual(onlyPattern('foo (a|b)[0-9]+', 'regexp'), re('foo(.*?)(a|b)[0-9]+'));
  });

  it('still groups when the group stands alone or holds spaces', () => {
    assert.deepEqual(onlyPattern('(foo) bar'), { kind: 'and', children: [lit('foo'), lit('bar')] });
    assert.deepEqual(onlyPattern('(foo or bar) baz'), { kind: 'and', children: [{ kind: 'or', children: [lit('foo'), lit('bar')] }, lit('baz')] });
  });
});
