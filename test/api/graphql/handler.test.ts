/**
 * The HTTP contract of the GraphQL handler (reference §3.1, §3.2): body errors, validation
 * errors, the mcp-only scope refusal, introspection, the compile cache and every cost limit.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getIntrospectionQuery } from 'graphql';
import { DEFAULT_COST_LIMITS } from '../../../src/api/graphql/cost.js';
import { createGraphQLHandler } from '../../../src/api/graphql/handler.js';
import { contextFor, createGraphQLFixture, type GraphQLFixture } from './fixture.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

const COST_REFUSAL = '{"errors":[{"message":"query exceeds maximum query cost"}]}';

test('malformed JSON, a non-object body and a missing query answer 400 with a JSON error', async () => {
  for (const body of ['{"query": ', Buffer.from('not json'), '[1]', '{}', { query: '   ' }, { query: '{ site { siteID } }', variables: [1] }]) {
    const response = await fx.handler({ body }, contextFor(fx.alice));
    assert.equal(response.status, 400, String(body));
    assert.equal(typeof JSON.parse(response.body).errors[0].message, 'string');
  }
});

test('a raw JSON body (string or bytes) is parsed like an object body', async () => {
  const text = JSON.stringify({ query: 'query Q { site { siteID } }', operationName: 'Q' });
  for (const body of [text, Buffer.from(text)]) {
    const response = await fx.handler({ body, name: 'Q' }, contextFor(fx.alice));
    assert.deepEqual({ status: response.status, json: JSON.parse(response.body) }, { status: 200, json: { data: { site: { siteID: 'test-site' } } } });
  }
});

test('validation errors answer 200 with message and locations, and no data', async () => {
  const { status, json } = await fx.post({ query: '{\n  site { nope }\n}' });
  assert.equal(status, 200);
  assert.deepEqual(json, { errors: [{ message: 'Cannot query field "nope" on type "Site".', locations: [{ line: 2, column: 10 }] }] });
  const syntax = await fx.post({ query: '{ site {' });
  assert.equal(syntax.status, 200);
  assert.match(syntax.json.errors[0].message, /^Syntax Error/);
});

test('a missing required variable is an error without data', async () => {
  const { status, json } = await fx.post({ query: 'query ($n: String!) { repository(name: $n) { name } }' });
  assert.equal(status, 200);
  assert.equal(json.data, undefined);
  assert.match(json.errors[0].message, /\$n/);
});

test('the standard introspection query succeeds under the default limits', async () => {
  fx.limits = DEFAULT_COST_LIMITS;
  const { status, json } = await fx.post({ query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' });
  assert.equal(status, 200);
  assert.equal(json.errors, undefined);
  const names = json.data.__schema.types.map((t: any) => t.name);
  for (const name of ['FileMatch', 'Repository', 'SearchResults', 'GitCommit', 'Mutation']) assert.ok(names.includes(name), name);
});

test('a second identical document is a compile cache hit; another operation name is a miss', async () => {
  const query = 'query A { site { siteID } } query B { site { productVersion } }';
  const { hits, misses } = fx.handler.cache;
  await fx.post({ query, operationName: 'A' });
  assert.deepEqual([fx.handler.cache.hits, fx.handler.cache.misses], [hits, misses + 1]);
  const again = await fx.post({ query, operationName: 'A' });
  assert.deepEqual(again.json, { data: { site: { siteID: 'test-site' } } });
  assert.deepEqual([fx.handler.cache.hits, fx.handler.cache.misses], [hits + 1, misses + 1]);
  const other = await fx.post({ query, operationName: 'B' });
  assert.deepEqual(other.json, { data: { site: { productVersion: '0.1.0' } } });
  assert.deepEqual([fx.handler.cache.hits, fx.handler.cache.misses], [hits + 1, misses + 2]);
});

const LIMIT_CASES = [
  { limit: 'maxDepth', value: 3, over: '{ repository(name: "github.com/acme/app") { commit(rev: "HEAD") { blob(path: "README.md") { name } } } }', within: '{ repository(name: "github.com/acme/app") { commit(rev: "HEAD") { oid } } }' },
  { limit: 'maxAliases', value: 2, over: '{ a: site { siteID } b: site { siteID } c: site { siteID } }', within: '{ a: site { siteID } b: site { siteID } }' },
  { limit: 'maxFieldCount', value: 100, over: '{ repositories(first: 60) { nodes { name url } } }', within: '{ repositories(first: 30) { nodes { name url } } }' },
  { limit: 'maxDuplicateFieldCount', value: 2, over: '{ site { siteID siteID siteID siteID } }', within: '{ site { siteID siteID siteID } }' },
  { limit: 'maxUniqueFieldCount', value: 3, over: '{ site { siteID buildVersion productVersion } }', within: '{ site { siteID buildVersion } }' },
] as const;

for (const c of LIMIT_CASES) {
  test(`over ${c.limit} answers 403 with the cost refusal body; within it runs`, async () => {
    fx.limits = { ...DEFAULT_COST_LIMITS, [c.limit]: c.value };
    try {
      const over = await fx.handler({ body: { query: c.over } }, contextFor(fx.alice));
      assert.equal(over.status, 403);
      assert.equal(over.body, COST_REFUSAL);
      const within = await fx.post({ query: c.within });
      assert.equal(within.status, 200);
      assert.equal(within.json.errors, undefined);
    } finally {
      fx.limits = DEFAULT_COST_LIMITS;
    }
  });
}

test('field count multiplies by first given as a variable', async () => {
  fx.limits = { ...DEFAULT_COST_LIMITS, maxFieldCount: 100 };
  try {
    const query = 'query ($n: Int) { repositories(first: $n) { nodes { name url } } }';
    assert.equal((await fx.post({ query, variables: { n: 60 } })).status, 403);
    assert.equal((await fx.post({ query, variables: { n: 10 } })).status, 200);
  } finally {
    fx.limits = DEFAULT_COST_LIMITS;
  }
});

test('an invalid document is answered as a validation error, not cost-estimated', async () => {
  fx.limits = { ...DEFAULT_COST_LIMITS, maxUniqueFieldCount: 1 };
  try {
    const { status, json } = await fx.post({ query: '{ site { siteID nope } }' });
    assert.equal(status, 200);
    assert.match(json.errors[0].message, /Cannot query field "nope"/);
  } finally {
    fx.limits = DEFAULT_COST_LIMITS;
  }
});

test('observe hears each executed query with its request name and error count', async () => {
  const events: { name: string; errors: number }[] = [];
  const handler = createGraphQLHandler(fx.services, {
    limits: () => DEFAULT_COST_LIMITS, observe: (e) => events.push({ name: e.name, errors: e.errors }),
  });
  await handler({ body: { query: '{ site { siteID } }' }, name: 'Site' }, contextFor(fx.alice));
  await handler({ body: { query: '{ users { totalCount } }' }, name: 'Users' }, contextFor(fx.alice));
  await handler({ body: { query: '{ nope }' }, name: 'Invalid' }, contextFor(fx.alice));
  assert.deepEqual(events, [{ name: 'Site', errors: 0 }, { name: 'Users', errors: 1 }]);
});
