/**
 * The edge's catch-up with a shared store (HttpServerOptions.catchUp) on a real loopback port:
 * credentials are read only after it settled; a body sent while it is pending still arrives whole;
 * a rejection is 503 with the error's Retry-After and the server keeps serving; routes marked
 * `unlimited` (health) never wait for it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createError } from '../../src/errors.js';
import type { Route } from '../../src/http/routes.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';

type Gate = { pending: Promise<void>; open(): void; fail(error: unknown): void };
const gate = (): Gate => {
  let open = (): void => undefined;
  let fail = (_: unknown): void => undefined;
  const pending = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  // Failed before the server awaits it: not an unhandled rejection.
  pending.catch(() => undefined);
  return { pending, open, fail };
};

/** What the store would hold: changed by the catch-up, read by the authenticator. */
let storeState = 'old';
let next: Gate | null = null;
const events: string[] = [];
const routes: Route<string>[] = [
  { method: 'POST', path: '/echo', handler: (request, reply) => reply.json(200, { auth: request.auth, body: Buffer.from(request.body).toString() }) },
  { method: 'GET', path: '/healthz', unlimited: true, handler: (_request, reply) => reply.text(200, 'ok') },
];
let server: HttpServer;
let base = '';

before(async () => {
  server = createHttpServer<string>({
    routes,
    maxBodyBytes: () => 1 << 20,
    authenticate: () => {
      events.push('authenticate');
      return storeState;
    },
    catchUp: () => {
      events.push('catch-up');
      return next?.pending ?? Promise.resolve();
    },
  });
  const { port } = await server.listen('127.0.0.1', 0);
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  await server.close(100);
});

test('credentials are read after the catch-up settled, and a body sent meanwhile arrives whole', async () => {
  next = gate();
  events.length = 0;
  const body = 'x'.repeat(200_000);
  const answer = fetch(`${base}/echo`, { method: 'POST', body, signal: AbortSignal.timeout(30_000) });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(events, ['catch-up'], 'nothing read the credentials while the catch-up is pending');
  storeState = 'new';
  next.open();
  const response = await answer;
  assert.equal(response.status, 200);
  const json = await response.json() as { auth: string; body: string };
  assert.equal(json.auth, 'new', 'the credentials were resolved against the caught-up store');
  assert.equal(json.body.length, body.length);
  next = null;
});

test('a failed catch-up is 503 with the Retry-After it names; the next request is served', async () => {
  next = gate();
  next.fail(createError('STORE_UNAVAILABLE', 'PostgreSQL connection lost: test', { retryAfterSeconds: 7 }));
  const refused = await fetch(`${base}/echo`, { method: 'POST', body: 'hello' });
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get('retry-after'), '7');
  assert.match(await refused.text(), /database is unavailable/);
  next = gate();
  next.fail(new Error('no details'));
  const plain = await fetch(`${base}/echo`, { method: 'POST', body: 'hello' });
  assert.equal(plain.status, 503);
  assert.equal(plain.headers.get('retry-after'), '1');
  await plain.arrayBuffer();
  next = null;
  const served = await fetch(`${base}/echo`, { method: 'POST', body: 'again' });
  assert.equal(served.status, 200);
  assert.equal((await served.json() as { body: string }).body, 'again');
});

test('a route marked unlimited (health) answers without waiting for the catch-up', async () => {
  next = gate();
  events.length = 0;
  const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(30_000) });
  assert.equal(health.status, 200);
  assert.deepEqual(events, []);
  next.open();
  next = null;
});
