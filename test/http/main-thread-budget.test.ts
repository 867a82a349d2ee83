/**
 * The main thread shared fairly, against a real server over loopback: a caller whose requests cost
 * the main thread milliseconds each (a 2,000-term query parsed and refused, again and again) is
 * answered 429 once it has spent its share, before its next body is read, while another caller's
 * cheap requests answer as before; and MCP bodies larger than any valid tool call are refused 413
 * before they are read into memory, copied to a protocol thread and parsed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MCP_MAX_BODY_BYTES } from '../../src/api/mcp/routes.js';
import { createAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';

/** Small, so the test spends it in a few dozen requests; the server's default is 6,000. */
const BUDGET_MS_PER_MINUTE = 300;
/** The costly caller's requests before the test gives up on seeing a 429 (old code never answers one). */
const MAX_COSTLY_REQUESTS = 600;

let fixture: ServerFixture;
let costly = '';
let other = '';

before(async () => {
  fixture = await startServerFixture({ 'github.com/acme/app': { 'router.ts': 'export class Router {}\n' } }, {
    mainThreadMsPerMinute: BUDGET_MS_PER_MINUTE,
    prepare(store) {
      const tokenFor = (username: string): string => {
        const user = createUser(store, { username });
        return createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: 'main-thread budget test' }).token;
      };
      costly = tokenFor('costly');
      other = tokenFor('other');
    },
  });
});
after(async () => { await fixture.close(); });

/** Under the 16 KiB query bound, over the 128-pattern one: parsed in full, then refused. */
const MANY_TERMS = Array.from({ length: 2000 }, (_, i) => `t${i.toString(36)}`).join(' OR ');
const SEARCH = 'query ($q: String!) { search(query: $q) { results { matchCount } } }';

async function graphql(token: string, query: string, variables: Record<string, unknown> = {}): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${fixture.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

async function mcp(token: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${fixture.url}/.api/mcp/all`, {
    method: 'POST', body, headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  });
  return { status: response.status, body: await response.text() };
}

const keywordSearch = (query: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'keyword_search', arguments: { query } } });

test('a caller parsing costly queries in a loop gets 429 once its main-thread time is spent; another caller is served meanwhile', async () => {
  let refused: Awaited<ReturnType<typeof graphql>> | null = null;
  let answered = 0;
  for (let i = 0; i < MAX_COSTLY_REQUESTS && refused === null; i++) {
    const answer = await graphql(costly, SEARCH, { q: MANY_TERMS });
    if (answer.status === 429) refused = answer;
    else {
      assert.equal(answer.status, 200, answer.body.slice(0, 300));
      assert.match(answer.body, /too many patterns/);
      answered++;
    }
  }
  assert.ok(refused !== null, `${MAX_COSTLY_REQUESTS} costly queries were all parsed and answered; none was refused`);
  assert.ok(answered > 0, 'the first costly queries are answered with their error');
  assert.ok(Number(refused.retryAfter) >= 1, `Retry-After: ${refused.retryAfter}`);
  // While barred, even its cheap requests wait; the other caller's do not.
  assert.equal((await graphql(costly, '{ currentUser { username } }')).status, 429);
  assert.deepEqual(await graphql(other, '{ currentUser { username } }'), { status: 200, retryAfter: null, body: '{"data":{"currentUser":{"username":"other"}}}' });
  const served = await mcp(other, keywordSearch('Router'));
  assert.equal(served.status, 200);
  assert.match(served.body, /router\.ts/);
});

test('an MCP body over the largest valid tool call is refused 413 unread; one under it reaches its tool', async () => {
  const huge = await mcp(other, keywordSearch('x'.repeat(MCP_MAX_BODY_BYTES)));
  assert.equal(huge.status, 413);
  assert.match(huge.body, new RegExp(`body limit is ${MCP_MAX_BODY_BYTES} bytes`));
  // Under the bound: the tool itself refuses the query for its length, as before.
  const large = await mcp(other, keywordSearch('x'.repeat(MCP_MAX_BODY_BYTES - 1024)));
  assert.equal(large.status, 200);
  assert.match(large.body, /"isError":true/);
  assert.match(large.body, /too long/);
  const ordinary = await mcp(other, keywordSearch('Router'));
  assert.equal(ordinary.status, 200);
  assert.match(ordinary.body, /router\.ts/);
});
