/**
 * GraphQL search over a real index: the exact `src search` document, Sourcegraph's result shapes
 * (0-based lines, [offset, length] pairs), facets, and repositories the caller may not read.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createGraphQLFixture, SECRET_REPO, type GraphQLFixture } from './fixture.js';
import { SRC_SEARCH_QUERY } from './src-search-query.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

test('the exact src search query succeeds with FileMatch results', async () => {
  const { status, json } = await fx.post({ query: SRC_SEARCH_QUERY, variables: { query: 'repo:acme/app Router' } });
  assert.equal(status, 200);
  assert.equal(json.errors, undefined);
  assert.equal(json.data.site.buildVersion, '0.1.0');
  const results = json.data.search.results;
  const router = results.results.find((r: any) => r.file?.path === 'src/router.ts');
  assert.equal(router.__typename, 'FileMatch');
  assert.deepEqual(router.repository, { name: 'github.com/acme/app', url: '/github.com/acme/app' });
  assert.equal(router.file.name, 'router.ts');
  assert.match(router.file.commit.oid, /^[0-9a-f]{40}$/);
  assert.equal(router.file.content, 'export class Router {\n  route(path: string): string {\n    return path;\n  }\n}\n');
  assert.deepEqual(router.lineMatches, [{ preview: 'export class Router {', lineNumber: 0, offsetAndLengths: [[13, 6]], limitHit: false }]);
  const readme = results.results.find((r: any) => r.file?.path === 'README.md');
  assert.deepEqual(readme.lineMatches.map((l: any) => [l.lineNumber, l.offsetAndLengths]), [[1, [[9, 6]]]]);
  assert.equal(results.resultCount, 2);
  assert.equal(results.limitHit, false);
  assert.deepEqual([results.cloning, results.missing, results.timedout], [[], [], []]);
  assert.equal(typeof results.elapsedMilliseconds, 'number');
  assert.equal(results.alert, null);
});

test('the src search query returns Repository results with label html', async () => {
  const { json } = await fx.post({ query: SRC_SEARCH_QUERY, variables: { query: 'type:repo acme/lib' } });
  assert.equal(json.errors, undefined);
  assert.deepEqual(json.data.search.results.results, [{
    __typename: 'Repository', name: 'github.com/acme/lib', url: '/github.com/acme/lib', externalURLs: [],
    label: { html: '<p><a href="/github.com/acme/lib" rel="nofollow">github.com/acme/lib</a></p>' },
  }]);
});

test('a restricted repository never appears in search for a user who may not read it', async () => {
  const query = '{ search(query: "Router", patternType: literal) { results { matchCount repositoriesCount results { ... on FileMatch { repository { name } } } dynamicFilters { value kind count } } } }';
  const alice = (await fx.post({ query }, fx.alice)).json.data.search.results;
  const aliceRepos = new Set(alice.results.map((r: any) => r.repository.name));
  assert.ok(!aliceRepos.has(SECRET_REPO));
  assert.deepEqual([...aliceRepos].sort(), ['github.com/acme/app', 'github.com/acme/lib']);
  assert.ok(!alice.dynamicFilters.some((f: any) => f.value.includes('secret')));
  const admin = (await fx.post({ query }, fx.admin)).json.data.search.results;
  assert.ok(admin.results.some((r: any) => r.repository.name === SECRET_REPO));
  assert.equal(admin.matchCount, alice.matchCount + 1);
  assert.equal(admin.repositoriesCount, 3);
});

test('dynamicFilters carry repo and lang facets counted by matches', async () => {
  const query = '{ search(query: "Router", patternType: literal) { results { matchCount approximateResultCount dynamicFilters { value label kind count limitHit } } } }';
  const results = (await fx.post({ query })).json.data.search.results;
  assert.equal(results.approximateResultCount, String(results.matchCount));
  const repoFacet = results.dynamicFilters.find((f: any) => f.value === 'repo:^github\\.com/acme/app$');
  assert.deepEqual(repoFacet, { value: 'repo:^github\\.com/acme/app$', label: 'github.com/acme/app', kind: 'repo', count: 2, limitHit: false });
  assert.ok(results.dynamicFilters.some((f: any) => f.kind === 'lang' && f.value === 'lang:go' && f.count === 2));
});

test('a query syntax error is a resolver error with its QuarryError code', async () => {
  const { status, json } = await fx.post({ query: '{ search(query: "(unbalanced", patternType: regexp) { results { matchCount } } }' });
  assert.equal(status, 200);
  assert.deepEqual(json.data, { search: null });
  assert.deepEqual(json.errors[0].path, ['search', 'results']);
  assert.match(json.errors[0].extensions.code, /^(QUERY_SYNTAX|PATTERN_INVALID)$/);
});
