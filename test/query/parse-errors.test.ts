import { describe, it } from 'node:test';
import { assertQueryError } from './helpers.js';

describe('parseQuery: malformed queries throw QUERY_SYNTAX with the position', () => {
  it('reports unbalanced and empty parentheses', () => {
    assertQueryError('(foo', 0, 'unbalanced parenthesis');
    assertQueryError('foo)', 3, 'unbalanced parenthesis');
    assertQueryError('(a))', 3, 'unbalanced parenthesis');
    assertQueryError('((a)', 0, 'unbalanced parenthesis');
    assertQueryError(') a', 0, 'unbalanced parenthesis');
    assertQueryError('a ( )', 2, 'empty parentheses');
  });

  it('reports dangling operators', () => {
    assertQueryError('foo and', 4, 'dangling operator AND');
    assertQueryError('and foo', 0, 'dangling operator AND');
    assertQueryError('foo or or bar', 4, 'dangling operator OR');
    assertQueryError('(foo or)', 5, 'dangling operator OR');
    assertQueryError('a OR', 2, 'dangling operator OR');
    assertQueryError('foo not', 4, 'dangling operator NOT');
    assertQueryError('not', 0, 'dangling operator NOT');
    assertQueryError('(not) a', 1, 'dangling operator NOT');
  });

  it('refuses nesting deep enough to threaten the stack', () => {
    assertQueryError(`${'('.repeat(200)}a${')'.repeat(200)}`, 100, 'nested too deeply');
    assertQueryError(`${'not '.repeat(200)}a`, 400, 'nested too deeply');
  });

  it('reports unknown fields and empty values', () => {
    assertQueryError('foo:bar', 0, 'unknown filter field "foo"');
    assertQueryError('x -Foo:"bar"', 2, 'unknown filter field "foo"');
    assertQueryError('repo:', 5, 'empty value for filter "repo:"');
    assertQueryError('repo:""', 5, 'empty value');
    assertQueryError('a file: b', 7, 'empty value for filter "file:"');
    assertQueryError('(lang:)', 6, 'empty value');
  });

  it('reports bad filter values at the value', () => {
    assertQueryError('count:abc', 6, 'invalid count "abc"');
    assertQueryError('count:0', 6, 'invalid count');
    assertQueryError('count:-1', 6, 'invalid count');
    assertQueryError('count:1.5', 6, 'invalid count');
    assertQueryError('count:99999999999999999999', 6, 'invalid count');
    assertQueryError('timeout:xyz', 8, 'invalid timeout "xyz"');
    assertQueryError('timeout:10', 8, 'invalid timeout');
    assertQueryError('timeout:0s', 8, 'invalid timeout');
    assertQueryError('timeout:-1s', 8, 'invalid timeout');
    assertQueryError('timeout:61s', 8, 'longer than the 60s maximum');
    assertQueryError('timeout:1m30s', 8, 'longer than the 60s maximum');
    assertQueryError('case:maybe', 5, 'invalid value "maybe" for "case:"');
    assertQueryError('type:wrong', 5, 'invalid value "wrong" for "type:"');
    assertQueryError('select:wrong', 7, 'invalid value "wrong" for "select:"');
    assertQueryError('select:symbol.wrong', 7, 'invalid value');
    assertQueryError('patterntype:wrong', 12, 'invalid value "wrong" for "patterntype:"');
    assertQueryError('fork:maybe', 5, 'invalid value "maybe" for "fork:"');
    assertQueryError('archived:sometimes', 9, 'invalid value "sometimes" for "archived:"');
    assertQueryError('visibility:secret', 11, 'invalid value');
    assertQueryError('lang:klingon', 5, 'unknown language "klingon"');
    assertQueryError('repo:@main', 5, 'empty repository pattern');
    assertQueryError('repo:a@', 5, 'empty revision');
    assertQueryError('repo:a@x::y', 5, 'empty revision');
    assertQueryError('-repo:a@b', 6, 'excluded repository cannot name revisions');
  });

  it('reports filters that cannot be negated', () => {
    assertQueryError('-case:yes', 0, 'filter "case:" cannot be negated');
    assertQueryError('not count:5', 4, 'filter "count:" cannot be negated');
    assertQueryError('-patterntype:regexp a', 0, 'cannot be negated');
    assertQueryError('-rev:x repo:a', 0, 'cannot be negated');
  });

  it('reports filters used more than once in one basic query', () => {
    assertQueryError('repo:a rev:x rev:y', 13, 'rev: may be used only once');
    assertQueryError('case:yes case:no', 9, 'case: may be used only once');
    assertQueryError('count:1 (count:2 a)', 9, 'count: may be used only once');
    assertQueryError('patterntype:regexp patterntype:literal', 19, 'conflicting patterntype');
  });

  it('reports rev: without repo: or together with repo:x@rev', () => {
    assertQueryError('repo:a@b rev:c', 9, 'rev: cannot be combined with repo:');
    assertQueryError('rev:c repo:a@b', 6, 'rev: cannot be combined with repo:');
    assertQueryError('rev:x foo', 0, 'rev: requires a repo: filter');
    assertQueryError('-repo:a rev:x', 8, 'rev: requires a repo: filter');
  });

  it('reports unterminated strings and regexps', () => {
    assertQueryError('a "b', 2, 'unterminated quoted string');
    assertQueryError('file:\'x', 5, 'unterminated quoted string');
    assertQueryError('/x\\/y', 0, 'unterminated regular expression');
  });
});

describe('parseQuery: Sourcegraph syntax Quarry lacks throws QUERY_UNSUPPORTED', () => {
  it('reports unsupported fields, predicates, pattern types, selects and contexts', () => {
    assertQueryError('repohasfile:README', 0, 'filter "repohasfile:" is not supported', 'QUERY_UNSUPPORTED');
    assertQueryError('x -index:no', 2, 'not supported', 'QUERY_UNSUPPORTED');
    assertQueryError('repo:has.file(path:README)', 5, 'repo:has.file() predicate', 'QUERY_UNSUPPORTED');
    assertQueryError('repo:contains.content(x)', 5, 'predicate', 'QUERY_UNSUPPORTED');
    assertQueryError('file:has.owner(bob)', 5, 'predicate', 'QUERY_UNSUPPORTED');
    assertQueryError('repo:a rev:at.time(2020-01-01)', 11, 'predicate', 'QUERY_UNSUPPORTED');
    assertQueryError('patterntype:structural', 12, 'patterntype:structural', 'QUERY_UNSUPPORTED');
    assertQueryError('select:file.owners', 7, 'select:file.owners', 'QUERY_UNSUPPORTED');
    assertQueryError('context:@me/mine', 8, 'context:global', 'QUERY_UNSUPPORTED');
  });
});
