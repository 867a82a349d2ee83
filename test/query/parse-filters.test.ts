import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery, type Filters } from '../../src/query/index.js';

function filters(text: string): Filters {
  const query = parseQuery(text);
  assert.equal(query.basics.length, 1);
  return query.basics[0]!.filters;
}

describe('parseQuery: filters', () => {
  it('has defaults for everything', () => {
    assert.deepEqual(filters('foo'), {
      repos: [], revs: [], files: [], langs: [], caseSensitive: false, types: [], count: null, timeoutMs: null,
      select: null, fork: null, archived: null, patternType: 'keyword',
    });
  });

  it('reads repo:, r:, -repo:, -r: and revisions after @', () => {
    assert.deepEqual(filters('repo:foo r:bar -repo:baz -r:qux').repos, [
      { pattern: 'foo', negated: false, revs: [] },
      { pattern: 'bar', negated: false, revs: [] },
      { pattern: 'baz', negated: true, revs: [] },
      { pattern: 'qux', negated: true, revs: [] },
    ]);
    assert.deepEqual(filters('repo:^github\\.com/a/b$@main:v1.2:^3.15').repos, [
      { pattern: '^github\\.com/a/b$', negated: false, revs: ['main', 'v1.2', '^3.15'] },
    ]);
    assert.deepEqual(filters('repo:"a b"').repos, [{ pattern: 'a b', negated: false, revs: [] }]);
  });

  it('reads rev: and revision: together with repo:', () => {
    assert.deepEqual(filters('repo:x rev:main').revs, ['main']);
    assert.deepEqual(filters('repo:x revision:a:b').revs, ['a', 'b']);
  });

  it('reads file:, f:, -file:, -f:', () => {
    assert.deepEqual(filters('file:\\.go$ f:^src/ -file:_test -f:vendor').files, [
      { pattern: '\\.go$', negated: false },
      { pattern: '^src/', negated: false },
      { pattern: '_test', negated: true },
      { pattern: 'vendor', negated: true },
    ]);
  });

  it('reads lang:, language:, l:, -lang: as canonical language names', () => {
    assert.deepEqual(filters('lang:golang language:TS l:c++ -lang:python').langs, [
      { name: 'Go', negated: false },
      { name: 'TypeScript', negated: false },
      { name: 'C++', negated: false },
      { name: 'Python', negated: true },
    ]);
  });

  it('reads case:yes and case:no in any letter case', () => {
    assert.equal(filters('case:yes').caseSensitive, true);
    assert.equal(filters('case:YES').caseSensitive, true);
    assert.equal(filters('case:no').caseSensitive, false);
  });

  it('reads several type: filters, dropping repeats', () => {
    assert.deepEqual(filters('type:symbol type:path type:symbol').types, ['symbol', 'path']);
    for (const type of ['file', 'path', 'repo', 'symbol', 'commit', 'diff']) {
      assert.deepEqual(filters(`type:${type}`).types, [type]);
    }
  });

  it('reads count: as a positive integer or all', () => {
    assert.equal(filters('count:1').count, 1);
    assert.equal(filters('count:5000').count, 5000);
    assert.equal(filters('count:all').count, 'all');
    assert.equal(filters('count:ALL').count, 'all');
  });

  it('reads timeout: as a Go duration in milliseconds', () => {
    const cases: [string, number][] = [
      ['500ms', 500], ['10s', 10_000], ['1m', 60_000], ['1.5s', 1500], ['0.1s', 100], ['30s500ms', 30_500],
      ['1ns', 1], ['2500us', 3], ['1500µs', 2], ['.5s', 500], ['+2s', 2000], ['60s', 60_000],
    ];
    for (const [text, ms] of cases) assert.equal(filters(`timeout:${text}`).timeoutMs, ms, text);
  });

  it('reads select: kinds', () => {
    const cases: [string, string][] = [
      ['repo', 'repo'], ['file', 'file'], ['file.path', 'file'], ['file.directory', 'file.directory'],
      ['content', 'content'], ['symbol', 'symbol'], ['symbol.function', 'symbol.function'],
      ['Symbol.Enum-Member', 'symbol.enum-member'],
    ];
    for (const [text, select] of cases) assert.equal(filters(`select:${text}`).select, select, text);
  });

  it('reads fork: and archived: as yes, no or only', () => {
    for (const value of ['yes', 'no', 'only'] as const) {
      assert.equal(filters(`fork:${value}`).fork, value);
      assert.equal(filters(`archived:${value.toUpperCase()}`).archived, value);
    }
  });

  it('accepts and ignores visibility: and context:global', () => {
    const ignored = filters('visibility:any visibility:public visibility:private context:global foo');
    assert.deepEqual(ignored, filters('foo'));
  });

  it('reads field names in any letter case', () => {
    const f = filters('REPO:a File:b LANG:go Case:yes COUNT:3 TimeOut:1s Type:diff');
    assert.deepEqual([f.repos[0]!.pattern, f.files[0]!.pattern, f.langs[0]!.name, f.caseSensitive, f.count, f.timeoutMs, f.types],
      ['a', 'b', 'Go', true, 3, 1000, ['diff']]);
  });

  it('reads NOT before a filter as its negation', () => {
    assert.deepEqual(filters('not file:x'), filters('-file:x'));
    assert.deepEqual(filters('NOT repo:x'), filters('-repo:x'));
    assert.deepEqual(filters('not -lang:go'), filters('lang:go'));
    assert.deepEqual(filters('not (file:x)'), filters('-file:x'));
  });

  it('leaves filter values that look like regexps or operators alone', () => {
    assert.equal(filters('file:(a|b)').files[0]!.pattern, '(a|b)');
    assert.equal(filters('repo:or').repos[0]!.pattern, 'or');
    assert.equal(filters('file:"a or b"').files[0]!.pattern, 'a or b');
  });
});
