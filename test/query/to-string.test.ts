import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryToString, type Filters, type PatternAtom, type Query } from '../../src/query/index.js';
import { canonical } from './helpers.js';

const DEFAULT_FILTERS: Filters = {
  repos: [], revs: [], files: [], langs: [], caseSensitive: false, types: [], count: null, timeoutMs: null,
  select: null, fork: null, archived: null, patternType: 'keyword',
};

function regexpQuery(value: string): Query {
  const atom: PatternAtom = { kind: 'atom', value, regexp: true, negated: false, field: 'default' };
  return { basics: [{ filters: DEFAULT_FILTERS, pattern: atom }] };
}

describe('queryToString', () => {
  it('prints the canonical S-expression', () => {
    assert.equal(canonical('repo:foo -file:bar case:yes (x or /y+/)'), '(and repo:foo -file:bar case:yes (or "x" /y+/))');
  });

  it('prints every filter in a fixed order with normalised values', () => {
    assert.equal(
      canonical('patterntype:regexp archived:only fork:yes select:file.path timeout:1s count:ALL type:symbol type:diff case:yes -lang:py lang:golang file:"a b" rev:v1 repo:x -repo:y'),
      '(and -repo:y repo:x rev:v1 file:"a b" -lang:Python lang:Go case:yes type:diff type:symbol count:all timeout:1000ms select:file fork:yes archived:only patterntype:regexp)',
    );
  });

  it('prints equal queries equally whatever the filter order or spelling', () => {
    assert.equal(canonical('file:b file:a repo:x foo'), canonical('r:x f:a FILE:b foo'));
    assert.equal(canonical('timeout:1m'), canonical('timeout:60000ms'));
    assert.equal(canonical('lang:ts'), canonical('language:TypeScript'));
    assert.equal(canonical('not file:x'), canonical('-file:x'));
    assert.equal(canonical('foo   bar'), canonical('foo bar'));
    assert.equal(canonical('"foo"'), canonical('foo'));
    assert.equal(canonical('repo:"a@main"'), canonical('repo:a@main'));
  });

  it('prints different queries differently', () => {
    const texts = [
      'foo', 'foo bar', '"foo bar"', '/foo/', 'not foo', 'content:foo', '-content:foo', 'foo or bar',
      'repo:a foo or bar', '(repo:a foo) or (repo:a bar)', 'repo:a (foo or bar)', 'repo:a@main', 'repo:a rev:main',
      'repo:a@b:c', 'repo:a@b', '-repo:a', 'file:a', 'file:"a b"', 'lang:go', 'case:yes',
      'type:file', 'type:path', 'count:10', 'count:all', 'timeout:10s', 'select:repo', 'fork:no', 'archived:no',
      'patterntype:standard foo', 'patterntype:literal foo', 'patterntype:regexp foo', '',
    ];
    const printed = texts.map((text) => canonical(text));
    assert.equal(new Set(printed).size, texts.length, printed.join('\n'));
  });

  it('quotes filter values only when needed', () => {
    assert.equal(canonical('repo:^github\\.com/a$'), 'repo:^github\\.com/a$');
    assert.equal(canonical('file:"x y"'), 'file:"x y"');
    assert.equal(canonical('repo:a@refs/heads/x:v1'), 'repo:a@refs/heads/x:v1');
    assert.equal(canonical('file:"a\\"b"'), 'file:"a\\"b"');
  });

  it('escapes / in regexps so that distinct values print distinctly', () => {
    assert.equal(canonical('/a\\/b/'), '/a\\/b/');
    assert.notEqual(queryToString(regexpQuery('a/b')), queryToString(regexpQuery('a\\/b')));
  });

  it('prints a filter-free, pattern-free basic query as an empty conjunction', () => {
    assert.equal(canonical(''), '(and)');
  });
});
