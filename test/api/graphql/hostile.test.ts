/**
 * Issue 12's hostile GraphQL documents and their families against the handler over real services:
 * each gets its exact answer within a generous time bound (the originals took seconds to minutes),
 * and documents just within the bounds still run and answer correctly.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_JIT_SELECTIONS } from '../../../src/api/graphql/compiled-queries.js';
import { DEFAULT_COST_LIMITS } from '../../../src/api/graphql/cost.js';
import { contextFor, createGraphQLFixture, type GraphQLFixture } from './fixture.js';
import { aliasFlood, duplicateFlood, fragmentBomb } from './hostile-documents.js';

let fx: GraphQLFixture;
before(async () => { fx = await createGraphQLFixture(); });
after(async () => { await fx.close(); });

const COST_REFUSAL = '{"errors":[{"message":"query exceeds maximum query cost"}]}';
const refusal = (message: string): string => JSON.stringify({ errors: [{ message: `query exceeds maximum query cost: ${message}` }] });
const TOKENS_REFUSAL = refusal('more than 10000 tokens; split it into smaller queries');
const EXPANSION_REFUSAL = refusal('its operations expand to more than 1000 fields and fragments (site setting rateLimits.graphQLMaxExpandedSelections)');
const MERGE_REFUSAL = refusal('merging its repeated fields and fragments takes more than 1000 comparisons; repeat them less');
const NESTING_REFUSAL = refusal('brackets nest more than 256 levels deep');
const DEEP_BODY = '{"errors":[{"message":"request body nests too deeply: more than 64 levels of arrays and objects"}]}';

/** Raw JSON bytes, as the HTTP edge hands them over; answered within `withinMs`. */
async function answer(body: unknown, withinMs = 500): Promise<{ status: number; body: string }> {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const started = performance.now();
  const response = await fx.handler({ body: raw }, contextFor(fx.alice));
  const ms = performance.now() - started;
  assert.ok(ms < withinMs, `answered in ${ms.toFixed(0)} ms, expected under ${withinMs} ms`);
  return response;
}

test('fragment bombs (depth 39, fan-out 2 and 8) get the cost refusal in milliseconds', async () => {
  for (const [depth, fanOut] of [[23, 2], [39, 2], [39, 8], [200, 3]] as const) {
    assert.deepEqual(await answer({ query: fragmentBomb(depth, fanOut) }), { status: 403, body: COST_REFUSAL }, `depth ${depth} fan-out ${fanOut}`);
  }
});

test('fragment cycles are validation errors, answered at once, bomb or not', async () => {
  const cycle = await answer({ query: '{ currentUser { ...A } } fragment A on User { username ...B } fragment B on User { ...A ...A }' });
  assert.equal(cycle.status, 200);
  // graphql-js names the cycle once per spread that closes it.
  assert.deepEqual(JSON.parse(cycle.body).errors.map((e: { message: string }) => e.message), Array(2).fill('Cannot spread fragment "A" within itself via "B".'));
  const cyclicBomb = `${fragmentBomb(30, 2).replace('{...F30}', '{...L}')} fragment L on User { ...L ...F30 }`;
  assert.deepEqual(await answer({ query: cyclicBomb }), { status: 403, body: COST_REFUSAL });
});

test('duplicate-field floods: 9,990 fields get the cost refusal, 20,000 the token refusal', async () => {
  // 10,000 tokens take tens of milliseconds to lex and parse; 8,000 fields used to take 22 s.
  assert.deepEqual(await answer({ query: duplicateFlood(9990) }, 1000), { status: 403, body: COST_REFUSAL });
  assert.deepEqual(await answer({ query: duplicateFlood(20_000) }), { status: 403, body: TOKENS_REFUSAL });
});

test('alias floods: 600 aliases are refused; 499, within every limit, run on graphql-js and answer', async () => {
  assert.deepEqual(await answer({ query: aliasFlood(600) }), { status: 403, body: COST_REFUSAL });
  const within = await answer({ query: aliasFlood(499) }, 2000);
  assert.equal(within.status, 200);
  const data = JSON.parse(within.body).data as Record<string, { username: string }>;
  assert.equal(Object.keys(data).length, 499);
  assert.deepEqual(data['a498'], { username: 'alice' });
});

test('a 10,000-token document is answered; one more token is refused before parsing', async () => {
  const names = (n: number): string => `{ repositories(names: [${'"x", '.repeat(n)}]) { totalCount } }`;
  // `{ repositories ( names : [` ... `] ) { totalCount } }` is 12 tokens besides the list items.
  const within = await answer({ query: names(9988) }, 1000);
  assert.deepEqual({ status: within.status, json: JSON.parse(within.body) }, { status: 200, json: { data: { repositories: { totalCount: 0 } } } });
  assert.deepEqual(await answer({ query: names(9989) }), { status: 403, body: TOKENS_REFUSAL });
});

test('3,000 nested selections are refused without overflowing the parser stack', async () => {
  const query = `query{${'a{'.repeat(3000)}b${'}'.repeat(3000)}}`;
  assert.deepEqual(await answer({ query }), { status: 403, body: NESTING_REFUSAL });
});

test('operations that are not run still count: validation reads them', async () => {
  const bomb = `query A { site { siteID } } ${fragmentBomb(30, 2).replace('query{', 'query B{')}`;
  assert.deepEqual(await answer({ query: bomb, operationName: 'A' }), { status: 403, body: EXPANSION_REFUSAL });
  const duplicates = `query A { site { siteID } } query B ${duplicateFlood(499)}`;
  assert.deepEqual(await answer({ query: duplicates, operationName: 'A' }), { status: 403, body: MERGE_REFUSAL });
});

test('same-key fields with long arguments: 499 are refused before the overlap rule, 20 run', async () => {
  const repeated = (n: number, chars: number): string => `{ ${`repositories(query: "${'u'.repeat(chars)}") { totalCount } `.repeat(n)}}`;
  assert.deepEqual(await answer({ query: repeated(499, 10) }), { status: 403, body: MERGE_REFUSAL });
  assert.deepEqual(await answer({ query: repeated(40, 5000) }), { status: 403, body: MERGE_REFUSAL });
  const within = await answer({ query: repeated(20, 8000) });
  assert.deepEqual({ status: within.status, json: JSON.parse(within.body) }, { status: 200, json: { data: { repositories: { totalCount: 0 } } } });
});

test('deeply nested JSON bodies and variables answer 400 before JSON.parse', async () => {
  const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
  for (const value of [deepArray, deepObject]) {
    assert.deepEqual(await answer(`{"query":"query ($n: String) { repository(name: $n) { name } }","variables":{"n":${value}}}`), { status: 400, body: DEEP_BODY });
    assert.deepEqual(await answer(`{"query":"{ site { siteID } }","extra":${value}}`), { status: 400, body: DEEP_BODY });
  }
  const shallow = await answer({ query: 'query ($n: [String!]) { repositories(names: $n) { totalCount } }', variables: { n: ['github.com/acme/app'] } });
  assert.deepEqual(JSON.parse(shallow.body), { data: { repositories: { totalCount: 1 } } });
});

test(`operations over ${MAX_JIT_SELECTIONS} selections run on graphql-js, smaller ones on graphql-jit, with the same answers`, async () => {
  const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `r${i}: repository(name: "github.com/acme/app") { name }`).join(' ')} }`;
  for (const [n, engine] of [[140, 'graphql-jit'], [160, 'graphql-js']] as const) {
    const prepared = fx.handler.cache.prepare(aliases(n), null);
    assert.equal(prepared.kind, 'measured');
    if (prepared.kind !== 'measured') continue;
    assert.deepEqual(prepared.validate(), []);
    const outcome = prepared.compile();
    assert.equal(outcome.kind === 'compiled' && outcome.engine, engine);
    const { json } = await fx.post({ query: aliases(n) });
    assert.equal(Object.keys(json.data).length, n);
    assert.ok(Object.values(json.data).every((repo) => JSON.stringify(repo) === '{"name":"github.com/acme/app"}'));
  }
});

test('the expansion limit is a site setting, checked before validation', async () => {
  fx.limits = { ...DEFAULT_COST_LIMITS, maxExpandedSelections: 4 };
  try {
    const over = await fx.handler({ body: { query: '{ currentUser { username email } site { siteID nope } }' } }, contextFor(fx.alice));
    assert.deepEqual(over, { status: 403, body: refusal('its operations expand to more than 4 fields and fragments (site setting rateLimits.graphQLMaxExpandedSelections)') });
    assert.deepEqual((await fx.post({ query: '{ currentUser { username email } }' })).json, { data: { currentUser: { username: 'alice', email: 'alice@example.com' } } });
  } finally {
    fx.limits = DEFAULT_COST_LIMITS;
  }
});
