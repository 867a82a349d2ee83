/**
 * GraphQL `FileMatch.symbols` over a real index: Sourcegraph's Symbol shape for `type:symbol` and
 * `select:symbol` results, empty for plain content matches, and no symbol of a restricted repository.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createGraphQLFixture, SECRET_REPO, type GraphQLFixture } from './fixture.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

const SYMBOLS_QUERY = `query ($q: String!) { search(query: $q, patternType: literal) { results { matchCount results {
  __typename ... on FileMatch { file { path } repository { name } lineMatches { lineNumber }
    symbols { name containerName kind language fileLocal url canonicalURL
      location { resource { path } url range { start { line character } end { line character } } } } } } } } }`;

async function results(q: string, as = fx.alice): Promise<any> {
  const { json } = await fx.post({ query: SYMBOLS_QUERY, variables: { q } }, as);
  assert.equal(json.errors, undefined);
  return json.data.search.results;
}

test('type:symbol results carry Sourcegraph Symbol objects', async () => {
  const found = await results('type:symbol Router');
  assert.equal(found.matchCount, 2);
  const router = found.results.find((r: any) => r.file.path === 'src/router.ts');
  assert.equal(router.__typename, 'FileMatch');
  assert.deepEqual(router.lineMatches, []);
  const oid = /@([0-9a-f]{40})\//.exec(router.symbols[0].url)![1];
  const url = `/github.com/acme/app@${oid}/-/blob/src/router.ts#L1:14-1:20`;
  assert.deepEqual(router.symbols, [{
    name: 'Router', containerName: null, kind: 'CLASS', language: 'TypeScript', fileLocal: false, url, canonicalURL: url,
    location: { resource: { path: 'src/router.ts' }, url, range: { start: { line: 0, character: 13 }, end: { line: 0, character: 19 } } },
  }]);
  const lib = found.results.find((r: any) => r.repository.name === 'github.com/acme/lib');
  assert.deepEqual(lib.symbols.map((s: any) => [s.name, s.kind, s.language, s.location.range.start.line]), [['NewRouter', 'FUNCTION', 'Go', 3]]);
});

test('methods name their container; select:symbol on a content search returns the definitions hit', async () => {
  const found = await results('repo:acme/app route select:symbol.method');
  assert.deepEqual(found.results.map((r: any) => [r.file.path, r.symbols.map((s: any) => `${s.containerName}.${s.name} ${s.kind}`)]), [['src/router.ts', ['Router.route METHOD']]]);
});

test('content matches have no symbols', async () => {
  const found = await results('repo:acme/app Uses the');
  assert.deepEqual(found.results.map((r: any) => [r.file.path, r.symbols]), [['README.md', []]]);
});

test('symbols of a restricted repository never reach a user who may not read it', async () => {
  const alice = await results('type:symbol Router');
  assert.ok(!alice.results.some((r: any) => r.repository.name === SECRET_REPO));
  const admin = await results('type:symbol Router', fx.admin);
  assert.deepEqual(admin.results.filter((r: any) => r.repository.name === SECRET_REPO).map((r: any) => r.symbols.map((s: any) => s.name)), [['Router']]);
});
