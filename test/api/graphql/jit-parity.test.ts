/**
 * graphql-jit must answer exactly as graphql-js does on our schema: same JSON for the `src search`
 * document and a repositories page, with one memoized search so both see the same response.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execute, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema } from '../../../src/api/graphql/schema.js';
import type { GraphQLContext } from '../../../src/api/graphql/services.js';
import type { SearchResponse } from '../../../src/model/result.js';
import { contextFor, createGraphQLFixture, type GraphQLFixture } from './fixture.js';
import { REPOSITORIES_PAGE_QUERY, SRC_SEARCH_QUERY } from './src-search-query.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

async function bothEngines(query: string, variables: Record<string, unknown>, memoize: boolean): Promise<[string, string]> {
  let cached: Promise<SearchResponse> | undefined;
  const search = memoize ? { search: (r: Parameters<typeof fx.services.search.search>[0]) => (cached ??= fx.services.search.search(r)) } : fx.services.search;
  const ctx: GraphQLContext = { ...contextFor(fx.alice), services: { ...fx.services, search } };
  const schema = createSchema();
  const document = parse(query);
  const compiled = compileQuery(schema, document);
  assert.ok(isCompiledQuery(compiled));
  const jit = await compiled.query(undefined, ctx, variables);
  const js = await execute({ schema, document, contextValue: ctx, variableValues: variables });
  // Key order is the handler's (data, then errors); the engines differ only in that order.
  const wire = (r: { data?: unknown; errors?: readonly unknown[] }): string => JSON.stringify({ data: r.data, errors: r.errors });
  return [wire(jit), wire(js)];
}

test('graphql-jit and graphql-js give identical JSON for the src search query', async () => {
  const [jit, js] = await bothEngines(SRC_SEARCH_QUERY, { query: 'Router' }, true);
  assert.equal(jit, js);
  const parsed = JSON.parse(jit);
  assert.equal(parsed.errors, undefined);
  assert.ok(parsed.data.search.results.results.length >= 3);
});

test('graphql-jit and graphql-js give identical JSON for a repositories page', async () => {
  const [jit, js] = await bothEngines(REPOSITORIES_PAGE_QUERY, { first: 2 }, false);
  assert.equal(jit, js);
  assert.equal(JSON.parse(jit).data.repositories.nodes.length, 2);
});

test('graphql-jit and graphql-js agree on resolver errors', async () => {
  const [jit, js] = await bothEngines('{ users { totalCount } site { siteID } }', {}, false);
  assert.equal(jit, js);
  assert.equal(JSON.parse(jit).errors[0].message, 'must be site admin');
});
