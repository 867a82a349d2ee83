/**
 * graphql-jit against graphql-js `execute` on Quarry's schema, for the `src search` document and a
 * repositories page. Search responses and blob reads are memoized, so only GraphQL execution is
 * timed; outputs must agree before anything is timed. Run: node dist/bench/graphql.bench.js
 */
import assert from 'node:assert/strict';
import { execute, parse, type DocumentNode, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema } from '../src/api/graphql/schema.js';
import type { GraphQLContext, RepoBrowser } from '../src/api/graphql/services.js';
import type { SearchResponse } from '../src/model/result.js';
import { contextFor, createGraphQLFixture } from '../test/api/graphql/fixture.js';
import { REPOSITORIES_PAGE_QUERY, SRC_SEARCH_QUERY } from '../test/api/graphql/src-search-query.js';
import { measure, type Timing } from './timing.js';

function memoizedBlobs(repos: RepoBrowser): RepoBrowser {
  const blobs = new Map<string, Promise<Buffer | null>>();
  return {
    ...repos,
    readBlob(repo, commit, path) {
      const key = `${repo}\0${commit}\0${path}`;
      if (!blobs.has(key)) blobs.set(key, repos.readBlob(repo, commit, path));
      return blobs.get(key)!;
    },
  };
}

const wire = (r: ExecutionResult): string => JSON.stringify({ data: r.data, errors: r.errors });

async function compare(label: string, document: DocumentNode, ctx: GraphQLContext, variables: Record<string, unknown>): Promise<[Timing, Timing]> {
  const schema = createSchema();
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`${label}: graphql-jit could not compile the document`);
  const runJs = async (): Promise<ExecutionResult> => execute({ schema, document, contextValue: ctx, variableValues: variables });
  const runJit = async (): Promise<ExecutionResult> => compiled.query(undefined, ctx, variables);
  const [js, jit] = [await runJs(), await runJit()];
  assert.equal(js.errors, undefined, `${label}: graphql-js errors`);
  assert.equal(wire(jit), wire(js), `${label}: graphql-jit and graphql-js disagree`);
  const options = { expectedMs: 0.2, warmupIterations: 200, async: true };
  return [await measure(`${label} graphql-js`, runJs, options), await measure(`${label} graphql-jit`, runJit, options)];
}

async function main(): Promise<void> {
  const fx = await createGraphQLFixture();
  try {
    let cached: Promise<SearchResponse> | undefined;
    const search = { search: (r: Parameters<typeof fx.services.search.search>[0]) => (cached ??= fx.services.search.search(r)) };
    const ctx: GraphQLContext = { ...contextFor(fx.admin), services: { ...fx.services, search, repos: memoizedBlobs(fx.services.repos) } };
    const cases = [
      await compare('src search', parse(SRC_SEARCH_QUERY), ctx, { query: 'Router' }),
      await compare('repositories page', parse(REPOSITORIES_PAGE_QUERY), ctx, { first: 3 }),
    ];
    console.log('| query | graphql-js mean µs | graphql-jit mean µs | js / jit |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const [js, jit] of cases) {
      const label = js.name.replace(/ graphql-js$/, '');
      console.log(`| ${label} | ${(js.meanMs * 1000).toFixed(1)} | ${(jit.meanMs * 1000).toFixed(1)} | ${(js.meanMs / jit.meanMs).toFixed(2)}x |`);
    }
  } finally {
    await fx.close();
  }
}

await main();
