/**
 * The uWS edge on a real loopback port: native binding, routing answers, bounded and gzip bodies,
 * that a refused request leaves the server serving, that a request's credentials are resolved at
 * most once, the edge and the handler sharing the result, that the client's address is read only
 * when asked, and that closing leaves no connection open.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createCallerLimiter } from '../../src/http/caller-limits.js';
import { createMetrics } from '../../src/http/metrics.js';
import type { Route } from '../../src/http/routes.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { binding } from '../../src/http/uws.js';
import { metricValue } from './server-fixture.js';

const LIMIT = 1024;
/** /small's own bound, below the server's. */
const ROUTE_LIMIT = 100;
const metrics = createMetrics();
const routes: Route[] = [
  { method: 'POST', path: '/echo', handler: (request, reply) => reply.json(200, { bytes: request.body.length, text: Buffer.from(request.body).toString() }) },
  { method: 'GET', path: '/hello', handler: (request, reply) => reply.text(200, `hello ${request.query.get('name')} ${request.headers['x-test']}`) },
  { method: 'GET', path: '/throws', handler: () => { throw new Error('boom'); } },
  { method: 'POST', path: '/small', maxBodyBytes: ROUTE_LIMIT, handler: (request, reply) => reply.json(200, { bytes: request.body.length }) },
];
let server: HttpServer;
let base = '';
const logs: string[] = [];

before(async () => {
  server = createHttpServer({ routes, maxBodyBytes: () => LIMIT, metrics, onLog: (line) => logs.push(line) });
  const { port } = await server.listen('127.0.0.1', 0);
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  await server.close(100);
});

test('the native uWebSockets.js binding is in use, not the pure-JS fallback', () => {
  assert.equal(binding, 'native');
  assert.equal(server.binding, 'native');
});

test('a request reaches its handler as plain data: query and lower-cased headers', async () => {
  const res = await fetch(`${base}/hello?name=quarry`, { headers: { 'X-Test': 'yes' } });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'hello quarry yes\n');
});

test('unknown paths answer 404 and known paths with the wrong method 405 with Allow', async () => {
  const missing = await fetch(`${base}/nowhere`);
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /not found/);
  const wrong = await fetch(`${base}/echo`);
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get('allow'), 'POST');
});

test('a body over the limit is refused with 413 and the server keeps serving', async () => {
  const declared = await fetch(`${base}/echo`, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
  assert.equal(declared.status, 413);
  assert.match(await declared.text(), /body limit is 1024 bytes/);
  const chunked = await fetch(`${base}/echo`, { method: 'POST', body: chunkedBody(['y'.repeat(800), 'y'.repeat(800)]), duplex: 'half' } as RequestInit);
  assert.equal(chunked.status, 413);
  await chunked.text();
  const ok = await fetch(`${base}/echo`, { method: 'POST', body: 'z'.repeat(LIMIT) });
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as { bytes: number }).bytes, LIMIT);
});

test("a route's own body bound refuses a larger body with 413 before its handler, on a connection that stays open", async () => {
  const ok = await fetch(`${base}/small`, { method: 'POST', body: 'a'.repeat(ROUTE_LIMIT) });
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as { bytes: number }).bytes, ROUTE_LIMIT);
  const chunked = await fetch(`${base}/small`, { method: 'POST', body: chunkedBody(['b'.repeat(80), 'b'.repeat(80)]), duplex: 'half' } as RequestInit);
  assert.equal(chunked.status, 413);
  assert.match(await chunked.text(), /body limit is 100 bytes/);
  // Declared over the route's bound but within the server's: read to its end and dropped, so the
  // client sees the 413 and the connection serves its next request.
  const socket = connect(Number(new URL(base).port), '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const body = 'c'.repeat(ROUTE_LIMIT + 1);
  socket.write(`POST /small HTTP/1.1\r\nHost: quarry.test\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  socket.write('GET /hello?name=again HTTP/1.1\r\nHost: quarry.test\r\n\r\n');
  const deadline = Date.now() + 10_000;
  while (!received.includes('hello again') && Date.now() < deadline && !socket.destroyed) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  assert.match(received, /^HTTP\/1\.1 413 /);
  assert.match(received, /body limit is 100 bytes/);
  assert.match(received, /hello again/, 'the connection stayed open for the next request');
});

test('gzip bodies are inflated, bounded after inflation, and malformed gzip is a 400', async () => {
  const gz = await fetch(`${base}/echo`, { method: 'POST', body: gzipSync('{"query":"compressed"}'), headers: { 'Content-Encoding': 'gzip' } });
  assert.equal(gz.status, 200);
  assert.equal(((await gz.json()) as { text: string }).text, '{"query":"compressed"}');
  const bomb = await fetch(`${base}/echo`, { method: 'POST', body: gzipSync('a'.repeat(100_000)), headers: { 'Content-Encoding': 'gzip' } });
  assert.equal(bomb.status, 413);
  assert.match(await bomb.text(), /inflated body limit/);
  const broken = await fetch(`${base}/echo`, { method: 'POST', body: Buffer.from('not gzip at all'), headers: { 'Content-Encoding': 'gzip' } });
  assert.equal(broken.status, 400);
  assert.match(await broken.text(), /not valid gzip/);
  const after = await fetch(`${base}/hello?name=again`);
  assert.equal(after.status, 200);
});

test('a handler that throws answers 500, is logged, and is counted by route and status', async () => {
  const res = await fetch(`${base}/throws`);
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { error: 'internal server error' });
  assert.ok(logs.some((l) => l.includes('/throws failed: boom')));
  const memory = { residentBytes: 1, mainHeapUsedBytes: 1, mainHeapTotalBytes: 1, mainExternalBytes: 1, lanes: [] };
  const text = metrics.render({ memory, loopDelay: { p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 }, poolQueueDepth: 0, poolThreads: 1, requestsInFlight: server.requestsInFlight, indexes: { repositories: 0, files: 0, bytes: 0, symbolsPending: 0 }, indexPhases: [], uptimeSeconds: 1 });
  assert.equal(metricValue(text, 'quarry_http_requests_total{route="/throws",status="500"}'), 1);
  assert.equal(metricValue(text, 'quarry_http_requests_total{route="unmatched",status="404"}'), 1);
});

test('the edge and the handler read one resolution of a request\'s credentials; nobody asking costs none', async () => {
  const resolved: string[] = [];
  const seen: string[] = [];
  const authServer = createHttpServer<{ readonly who: string }>({
    authenticate: (request) => {
      resolved.push(request.headers['authorization'] ?? '');
      return { who: request.headers['authorization'] ?? 'nobody' };
    },
    maxBodyBytes: () => LIMIT,
    limits: {
      limiter: createCallerLimiter(() => ({ requestsPerMinute: 0, anonymousRequestsPerMinute: 0, concurrentRequests: 0, queuedRequests: 0, queueTimeoutMs: 0 })),
      callerOf: (request) => ({ key: request.auth.who, anonymous: false }),
    },
    guard: (request) => (request.path !== '/health' && request.auth.who === 'mallory' ? { status: 403, body: 'no\n', headers: {} } : null),
    routes: [
      { method: 'GET', path: '/who', handler: (request, reply) => reply.text(200, request.auth.who) },
      { method: 'GET', path: '/health', unlimited: true, handler: (_, reply) => reply.text(200, 'ok') },
    ],
  });
  const { port } = await authServer.listen('127.0.0.1', 0);
  try {
    const as = async (path: string, who?: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, who === undefined ? {} : { headers: { Authorization: who } });
      seen.push(`${res.status} ${(await res.text()).trim()}`);
    };
    await as('/who', 'alice');
    await as('/who', 'alice');
    await as('/who', 'mallory');
    assert.deepEqual(seen, ['200 alice', '200 alice', '403 no']);
    assert.deepEqual(resolved, ['alice', 'alice', 'mallory'], 'once per request, though the limits, the guard and the handler all read it');
    await as('/health', 'carol');
    assert.deepEqual(seen.at(-1), '200 ok');
    assert.equal(resolved.length, 3, 'an unlimited route nobody asks about is never resolved');
  } finally {
    await authServer.close(100);
  }
});

test("the client's address is read when asked, after an await too; once the reply ended it is ''", async () => {
  const afterEnd: string[] = [];
  const addressServer = createHttpServer({
    maxBodyBytes: () => LIMIT,
    routes: [
      {
        method: 'GET', path: '/address', async handler(request, reply) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          reply.text(200, request.remoteAddress);
        },
      },
      {
        method: 'GET', path: '/late', handler(request, reply) {
          reply.text(200, 'done');
          afterEnd.push(request.remoteAddress);
        },
      },
    ],
  });
  const { port } = await addressServer.listen('127.0.0.1', 0);
  try {
    const address = (await (await fetch(`http://127.0.0.1:${port}/address`)).text()).trim();
    assert.match(address, /^(127\.0\.0\.1|(0{4}:){5}ffff:7f00:0001)$/, 'uWS spells loopback IPv4 either way');
    assert.equal((await fetch(`http://127.0.0.1:${port}/late`)).status, 200);
    assert.deepEqual(afterEnd, ['']);
  } finally {
    await addressServer.close(100);
  }
});

test('close ends idle keep-alive connections as well, so no client connection outlives the server', async () => {
  const own = createHttpServer({ routes, maxBodyBytes: () => LIMIT });
  const { port } = await own.listen('127.0.0.1', 0);
  const socket = connect(port, '127.0.0.1');
  const ended = once(socket, 'close');
  socket.write('GET /hello?name=idle HTTP/1.1\r\nHost: quarry.test\r\nConnection: keep-alive\r\n\r\n');
  const [answer] = await once(socket, 'data');
  assert.match(String(answer), /^HTTP\/1\.1 200 OK\r\n[^]*hello idle/);
  const started = performance.now();
  assert.deepEqual(await own.close(100), { cutOff: 0 }, 'an idle connection is no request in flight');
  await ended;
  assert.ok(performance.now() - started < 1000, 'closed by the server, not by a keep-alive timeout');
});

function chunkedBody(parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}
