import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../src/query/index.js';
import { assertQueryError, canonical } from './helpers.js';

describe('parseQuery: operators and precedence', () => {
  it('binds AND tighter than OR', () => {
    assert.equal(canonical('a and b or c and d'), '(or (and "a" "b") (and "c" "d"))');
    assert.equal(canonical('a or b and c'), '(or "a" (and "b" "c"))');
    assert.equal(canonical('a b or c'), '(or (and "a" "b") "c")');
  });

  it('groups with parentheses', () => {
    assert.equal(canonical('(a or b) and c'), '(and (or "a" "b") "c")');
    assert.equal(canonical('a (b or c)'), '(and "a" (or "b" "c"))');
    assert.equal(canonical('((a))'), '"a"');
  });

  it('flattens chains of the same operator', () => {
    assert.equal(canonical('a or (b or c)'), '(or "a" "b" "c")');
    assert.equal(canonical('a and (b c)'), '(and "a" "b" "c")');
  });

  it('reads NOT as AND NOT and pushes NOT of a pattern group down to the atoms', () => {
    assert.equal(canonical('a not b'), '(and "a" (not "b"))');
    assert.equal(canonical('not (a or b)'), '(and (not "a") (not "b"))');
    assert.equal(canonical('not (a b)'), '(or (not "a") (not "b"))');
    assert.equal(canonical('not not a'), '"a"');
    assert.equal(canonical('not /x/'), '(not /x/)');
  });
});

describe('parseQuery: filter scope (reference §2.6)', () => {
  it('lets an OR divide the filters that stand in its branches', () => {
    const query = parseQuery('file:main.c char c or (int i and int j)');
    assert.equal(query.basics.length, 2);
    assert.deepEqual(query.basics[0]!.filters.files, [{ pattern: 'main.c', negated: false }]);
    assert.equal(canonical('file:main.c char c or (int i and int j)'),
      '(union (and file:main.c "char" "c") (and "int" "i" "int" "j"))');
  });

  it('scopes a filter over a parenthesised OR of patterns as one basic query', () => {
    assert.equal(canonical('file:main.c (char c or (int i and int j))'),
      '(and file:main.c (or (and "char" "c") (and "int" "i" "int" "j")))');
  });

  it('distributes filters outside an OR over branches that carry their own filters', () => {
    assert.equal(canonical('repo:a (foo or file:x bar)'), '(union (and repo:a "foo") (and repo:a file:x "bar"))');
    assert.equal(canonical('(a or b) (repo:x or repo:y)'), '(union (and repo:x (or "a" "b")) (and repo:y (or "a" "b")))');
  });

  it('hoists filters in a group to the whole conjunction around it', () => {
    assert.equal(canonical('(repo:a foo) bar'), '(and repo:a "foo" "bar")');
    assert.equal(canonical('bar and (foo and file:x)'), '(and file:x "bar" "foo")');
  });

  it('splits an OR of filters into basic queries', () => {
    assert.equal(canonical('repo:a or repo:b'), '(union repo:a repo:b)');
    assert.equal(canonical('(repo:a or repo:b) foo'), '(union (and repo:a "foo") (and repo:b "foo"))');
  });

  it('checks rev: per basic query', () => {
    const query = parseQuery('(repo:a rev:x) or (repo:b rev:y)');
    assert.deepEqual(query.basics.map((basic) => basic.filters.revs), [['x'], ['y']]);
  });

  it('refuses NOT of a group that contains filters', () => {
    assertQueryError('not (file:x foo)', 0, 'NOT applies to patterns');
    assertQueryError('a not (repo:x or b)', 2, 'NOT applies to patterns');
  });

  it('refuses a query that expands to too many basic queries', () => {
    const pairs = Array.from({ length: 7 }, (_, i) => `(repo:a${i} or repo:b${i})`);
    assert.equal(parseQuery(pairs.slice(0, 6).join(' ')).basics.length, 64);
    assertQueryError(pairs.join(' '), 0, 'more than 64 alternatives');
  });
});
