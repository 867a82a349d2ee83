/**
 * Searches one GraphQL request may start: counted on the document (aliases, fragments and aliased
 * `results` included) and refused past the site setting before any search runs; those within it
 * run one at a time, and a cancelled request starts no more.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_COST_LIMITS, type CostLimits } from '../../../src/api/graphql/cost.js';
import { createGraphQLHandler, type GraphQLHandler } from '../../../src/api/graphql/handler.js';
import type { SearchRequest, SearchService } from '../../../src/search/contracts.js';
import { contextFor, createGraphQLFixture, type GraphQLFixture } from './fixture.js';
import { aliasedSearches } from './hostile-documents.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

/** The real search service, watched: how many searches started and how many ran at once. */
interface WatchedSearch {
  readonly service: SearchService;
  calls: number;
  peak: number;
  onStart?: () => void;
}

function watch(inner: SearchService): WatchedSearch {
  let active = 0;
  const watched: WatchedSearch = {
    calls: 0,
    peak: 0,
    service: {
      async search(request: SearchRequest) {
        watched.calls++;
        watched.peak = Math.max(watched.peak, ++active);
        watched.onStart?.();
        try {
          return await inner.search(request);
        } finally {
          active--;
        }
      },
    },
  };
  return watched;
}

function handlerWith(watched: WatchedSearch, limits: CostLimits): GraphQLHandler {
  return createGraphQLHandler({ ...fx.services, search: watched.service }, { limits: () => limits });
}

const refusal = (searches: number, limit: number): string => JSON.stringify({ errors: [{
  message: `query exceeds maximum query cost: it starts ${searches} searches, at most ${limit} per request (site setting rateLimits.graphQLMaxSearches); send them in separate requests`,
}] });

test('200 aliased count:all regex searches are refused before any search starts', async () => {
  const watched = watch(fx.services.search);
  const started = performance.now();
  const response = await handlerWith(watched, DEFAULT_COST_LIMITS)({ body: { query: aliasedSearches(200) } }, contextFor(fx.alice));
  assert.ok(performance.now() - started < 500);
  assert.deepEqual(response, { status: 403, body: refusal(200, 5) });
  assert.equal(watched.calls, 0);
});

test('searches within the limit run one at a time and answer as a single search does', async () => {
  const watched = watch(fx.services.search);
  const handler = handlerWith(watched, { ...DEFAULT_COST_LIMITS, maxSearches: 3 });
  const response = await handler({ body: { query: aliasedSearches(3) } }, contextFor(fx.alice));
  assert.equal(response.status, 200);
  const counts = Object.values(JSON.parse(response.body).data as Record<string, { results: { matchCount: number } }>).map((s) => s.results.matchCount);
  const single = JSON.parse((await handler({ body: { query: aliasedSearches(1) } }, contextFor(fx.alice))).body).data.s0.results.matchCount as number;
  assert.ok(single > 0);
  assert.deepEqual(counts, [single, single, single]);
  assert.deepEqual({ calls: watched.calls, peak: watched.peak }, { calls: 4, peak: 1 });
  assert.deepEqual(await handler({ body: { query: aliasedSearches(4) } }, contextFor(fx.alice)), { status: 403, body: refusal(4, 3) });
});

test('aliased results under one search field and searches in fragments count', async () => {
  const handler = handlerWith(watch(fx.services.search), { ...DEFAULT_COST_LIMITS, maxSearches: 1 });
  const twoResults = '{ search(query: "Router") { a: results { matchCount } b: results { limitHit } } }';
  assert.deepEqual(await handler({ body: { query: twoResults } }, contextFor(fx.alice)), { status: 403, body: refusal(2, 1) });
  const fragments = '{ ...S a: search(query: "lib") { ...R } } fragment S on Query { search(query: "Router") { ...R } } fragment R on Search { results { matchCount } }';
  assert.deepEqual(await handler({ body: { query: fragments } }, contextFor(fx.alice)), { status: 403, body: refusal(2, 1) });
});

test('a request cancelled during its first search starts none of the others', async () => {
  const watched = watch(fx.services.search);
  const cancel = new AbortController();
  watched.onStart = () => cancel.abort();
  const handler = handlerWith(watched, DEFAULT_COST_LIMITS);
  const response = await handler({ body: { query: aliasedSearches(3, 'Router') } }, { ...contextFor(fx.alice), signal: cancel.signal });
  assert.equal(watched.calls, 1);
  const errors = JSON.parse(response.body).errors as { message: string; extensions?: { code: string } }[];
  assert.ok(errors.filter((e) => e.extensions?.code === 'ABORTED').length >= 2, response.body);
});
