/**
 * The HTTP edge of a real `quarry serve` process on loopback: private mode and `auth.public`,
 * Sourcegraph's 401 texts for wrong-scope tokens, and per-caller limits from the site
 * configuration (429 + Retry-After for one caller while other tokens and addresses are served).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { OPEN, startRestrictedInstance, type RestrictedInstance } from './restricted-instance.js';
import type { ServerProcess } from './server-process.js';

const CURRENT_USER = JSON.stringify({ query: '{ currentUser { username } }' });
const SEARCH = JSON.stringify({ query: '{ search(query: "Router", patternType: literal) { results { results { ... on FileMatch { repository { name } } } } } }' });
let instance: RestrictedInstance;
let server: ServerProcess;
let admin = '';
let alice = '';
let mcpOnly = '';

const setConfig = (contents: string): void => instance.setConfig(contents);

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly ms: number;
}

/** One request from a chosen loopback source address (127.0.0.0/8 is all loopback on Linux). */
function call(path: string, options: { token?: string; from?: string; method?: string; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, server.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      localAddress: options.from ?? '127.0.0.1', agent: false,
      headers: { ...(options.token ? { Authorization: `token ${options.token}` } : {}), ...(options.body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(options.body) }) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const graphql = (body: string, options: { token?: string; from?: string } = {}): Promise<Answer> => call('/.api/graphql', { ...options, body });
const stream = (q: string, options: { token?: string; from?: string } = {}): Promise<Answer> => call(`/.api/search/stream?q=${encodeURIComponent(q)}`, options);

before(async () => {
  instance = await startRestrictedInstance({ 'router.go': 'package open\n\nfunc Router() {}\n' });
  ({ server, admin, alice, aliceMcp: mcpOnly } = instance);
});

after(() => instance.close());

describe('private mode', () => {
  it('answers anonymous callers 401 on GraphQL and the stream API; health and the console stay open; MCP keeps its challenge', async () => {
    for (const answer of [await graphql(CURRENT_USER), await stream('Router')]) {
      assert.deepEqual([answer.status, answer.text, answer.headers['vary']], [401, 'Private mode requires authentication.\n', 'Authorization']);
    }
    assert.equal((await call('/healthz')).status, 200);
    const console = await call('/debug/console');
    assert.equal(console.status, 200);
    assert.match(String(console.headers['content-type']), /text\/html/);
    const mcp = await call('/.api/mcp', { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(mcp.status, 401);
    assert.match(String(mcp.headers['www-authenticate']), /^Bearer .*error="invalid_token"/);
    assert.equal(JSON.parse((await graphql(CURRENT_USER, { token: alice })).text).data.currentUser.username, 'alice');
  });

  it('with auth.public true anonymous callers see public repositories only, without a restart', async () => {
    setConfig('{"auth.public": true}');
    try {
      const anonymous = await graphql(SEARCH);
      assert.equal(anonymous.status, 200);
      assert.deepEqual(JSON.parse(anonymous.text).data.search.results.results.map((r: any) => r.repository.name), [OPEN]);
      assert.equal(JSON.parse((await graphql(CURRENT_USER)).text).data.currentUser, null);
      const events = await stream('Router');
      assert.equal(events.status, 200);
      assert.match(events.text, /acme\/open/);
      assert.doesNotMatch(events.text, /acme\/secret/);
    } finally {
      setConfig('{}');
    }
    assert.equal((await graphql(CURRENT_USER)).status, 401);
  });

  it('answers wrong-scope and unknown tokens 401 `Invalid access token.` on GraphQL and the stream API', async () => {
    for (const token of [mcpOnly, `sgp_local_${'0'.repeat(40)}`]) {
      for (const answer of [await graphql(CURRENT_USER, { token }), await stream('Router', { token })]) {
        assert.deepEqual([answer.status, answer.text, answer.headers['vary']], [401, 'Invalid access token.\n', 'Authorization']);
      }
    }
    const listed = await fetch(`${server.url}/.api/mcp`, {
      method: 'POST',
      headers: { Authorization: `token ${mcpOnly}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(listed.status, 200, 'the mcp-only token still works where it is meant to');
  });
});

describe('per-caller limits', () => {
  it('refuses one token past its per-minute budget with 429 while another token and another address are served promptly', async () => {
    setConfig('{"auth.public": true, "rateLimits.requestsPerMinute": 5}');
    try {
      for (let i = 0; i < 5; i++) assert.equal((await graphql(CURRENT_USER, { token: alice })).status, 200);
      const refused = await graphql(CURRENT_USER, { token: alice });
      assert.equal(refused.status, 429);
      assert.equal(refused.text, '');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 12, `Retry-After ${retryAfter}`);
      assert.equal((await stream('Router', { token: alice })).status, 429, 'one budget for every door');
      const other = await graphql(CURRENT_USER, { token: admin });
      assert.equal(other.status, 200);
      assert.ok(other.ms < 2000, `the other token waited ${Math.round(other.ms)} ms`);
      const elsewhere = await graphql(CURRENT_USER, { from: '127.0.0.2' });
      assert.equal(elsewhere.status, 200);
      assert.ok(elsewhere.ms < 2000, `the other address waited ${Math.round(elsewhere.ms)} ms`);
      assert.equal((await call('/healthz', { token: alice })).status, 200, '/healthz is never limited');
      setConfig('{"auth.public": true, "rateLimits.requestsPerMinute": 1000}');
      assert.equal((await graphql(CURRENT_USER, { token: alice })).status, 200, 'a raised limit applies without a restart');
    } finally {
      setConfig('{}');
    }
  });

  it('counts made-up tokens against the address they come from', async () => {
    setConfig('{"rateLimits.anonymousRequestsPerMinute": 10}');
    try {
      const from = '127.0.0.3';
      for (let i = 0; i < 10; i++) {
        const made = `sgp_local_${(i + 1).toString(16).padStart(40, 'a')}`;
        assert.equal((await graphql(CURRENT_USER, { token: made, from })).status, 401);
      }
      assert.equal((await graphql(CURRENT_USER, { token: `sgp_local_${'b'.repeat(40)}`, from })).status, 429, 'a fresh made-up token buys no fresh budget');
      assert.equal((await graphql(CURRENT_USER, { from })).status, 429);
      assert.equal((await graphql(CURRENT_USER, { token: admin, from })).status, 200, 'a valid token from that address has its own budget');
      assert.equal((await graphql(CURRENT_USER, { token: `sgp_local_${'c'.repeat(40)}`, from: '127.0.0.4' })).status, 401, 'other addresses are unaffected');
    } finally {
      setConfig('{}');
    }
  });

  it('queues a caller past its concurrency limit in its own queue, refusing the overflow, while others are served promptly', async () => {
    setConfig('{"rateLimits.concurrentRequests": 2, "rateLimits.queuedRequests": 4}');
    try {
      const flood = Array.from({ length: 40 }, () => graphql(SEARCH, { token: alice }));
      const others = [];
      for (let i = 0; i < 5; i++) others.push(await graphql(CURRENT_USER, { token: admin }));
      const answers = await Promise.all(flood);
      const statuses = answers.map((a) => a.status);
      assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(' '));
      assert.ok(statuses.filter((s) => s === 429).length > 0, 'the overflow is refused');
      assert.ok(statuses.filter((s) => s === 200).length >= 6, 'two at once and the queued ones are answered');
      assert.ok(answers.filter((a) => a.status === 429).every((a) => a.headers['retry-after'] === '1' && a.text === ''));
      assert.ok(others.every((a) => a.status === 200));
      const slowest = Math.max(...others.map((a) => a.ms));
      assert.ok(slowest < 2000, `another token waited up to ${Math.round(slowest)} ms`);
    } finally {
      setConfig('{}');
    }
  });
});
