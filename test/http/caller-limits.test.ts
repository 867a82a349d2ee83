/**
 * Per-caller limits on the uWS edge over real loopback HTTP: 429 with Retry-After and an empty body
 * past a caller's budget while others are served (a refused upload read to its end first), settings read per request, each caller's own
 * bounded queue (one heavy caller does not delay another), unlimited routes, and bounded memory.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCallerLimiter, type Admission, type CallerLimitSettings } from '../../src/http/caller-limits.js';
import type { RequestHead } from '../../src/http/request.js';
import { barOwner } from '../../src/pool/work-owner.js';
import type { Route } from '../../src/http/routes.js';
import { createHttpServer, type EdgeLimits, type HttpServer } from '../../src/http/server.js';

const DEFAULTS: CallerLimitSettings = { requestsPerMinute: 0, anonymousRequestsPerMinute: 0, concurrentRequests: 0, queuedRequests: 0, queueTimeoutMs: 1000 };
let settings: CallerLimitSettings = DEFAULTS;

/** The caller named by `X-Caller`, else anonymous by address: enough to drive the limiter's mechanics. */
function callerOf(head: RequestHead): { key: string; anonymous: boolean } {
  const named = head.headers['x-caller'];
  return named === undefined ? { key: `address:${head.remoteAddress}`, anonymous: true } : { key: `token:${named}`, anonymous: false };
}

/** A shared resource with a FIFO queue, as the worker pool is: `slots` tasks of `taskMs` at a time. */
function createWorkers(slots: number, taskMs: number): () => Promise<void> {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async () => {
    if (busy < slots) busy++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    await sleep(taskMs);
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
}

let gate: Promise<void> = Promise.resolve();
let open: () => void = () => {};
function closeGate(): void {
  gate = new Promise((resolve) => (open = resolve));
}

function routes(work: () => Promise<void>): Route[] {
  return [
    { method: '*', path: '/hello', handler: (_, reply) => reply.text(200, 'hello') },
    { method: 'GET', path: '/held', handler: async (_, reply) => { await gate; reply.text(200, 'released'); } },
    { method: 'GET', path: '/work', handler: async (_, reply) => { await work(); reply.text(200, 'done'); } },
    { method: 'GET', path: '/healthz', unlimited: true, handler: (_, reply) => reply.text(200, 'ok') },
  ];
}

const servers: HttpServer[] = [];
async function serve(limits: EdgeLimits | undefined, work: () => Promise<void>): Promise<string> {
  const server = createHttpServer({ maxBodyBytes: () => 1 << 20, routes: routes(work), ...(limits ? { limits } : {}) });
  servers.push(server);
  return `http://127.0.0.1:${(await server.listen('127.0.0.1', 0)).port}`;
}

let limited = '';
let unlimited = '';

before(async () => {
  const limits: EdgeLimits = { limiter: createCallerLimiter(() => settings), callerOf };
  limited = await serve(limits, createWorkers(2, 40));
  unlimited = await serve(undefined, createWorkers(2, 40));
});

after(async () => {
  for (const server of servers) await server.close(100);
});

function get(base: string, path: string, caller?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}${path}`, { ...(caller ? { headers: { 'X-Caller': caller } } : {}), ...(signal ? { signal } : {}) });
}

/** A POST through `agent`, the whole body written (streamed as a client uploads it), the answer read. */
function post(agent: Agent, url: string, caller: string, body: Buffer): Promise<{ status: number; body: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'X-Caller': caller, 'Content-Length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    req.end();
  });
}

async function timed(request: Promise<Response>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await request;
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

describe('requests per minute', () => {
  test('past its budget a caller gets 429, Retry-After and an empty body; other callers are served', async () => {
    settings = { ...DEFAULTS, requestsPerMinute: 5, anonymousRequestsPerMinute: 100 };
    for (let i = 0; i < 5; i++) assert.equal((await get(limited, '/hello', 'heavy-rate')).status, 200);
    const refused = await get(limited, '/hello', 'heavy-rate');
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 12, `Retry-After ${retryAfter}`);
    assert.equal(await refused.text(), '');
    const withBody = await fetch(`${limited}/hello`, { method: 'POST', headers: { 'X-Caller': 'heavy-rate' }, body: 'x'.repeat(100_000) });
    assert.equal(withBody.status, 429);
    assert.equal((await get(limited, '/hello', 'light-rate')).status, 200);
    assert.equal((await get(limited, '/hello')).status, 200);
  });

  test('a refused request still uploading its body gets the 429 on a connection that stays open', async () => {
    settings = { ...DEFAULTS, requestsPerMinute: 1 };
    assert.equal((await get(limited, '/hello', 'uploader')).status, 200);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await post(agent, `${limited}/hello`, 'uploader', Buffer.alloc(900_000, 120));
      assert.deepEqual([refused.status, refused.body], [429, '']);
      settings = { ...DEFAULTS, requestsPerMinute: 0 };
      const next = await post(agent, `${limited}/hello`, 'uploader', Buffer.from('small'));
      assert.deepEqual([next.status, next.body, next.reusedSocket], [200, 'hello\n', true]);
    } finally {
      agent.destroy();
    }
  });

  test('a caller barred for spending a server-side budget gets 429 until the bar ends; others are served', async () => {
    settings = DEFAULTS;
    barOwner('token:spender', 1500);
    const refused = await get(limited, '/hello', 'spender');
    assert.deepEqual([refused.status, refused.headers.get('retry-after'), await refused.text()], [429, '2', '']);
    assert.equal((await get(limited, '/hello', 'thrifty')).status, 200);
    await sleep(1600);
    assert.equal((await get(limited, '/hello', 'spender')).status, 200);
  });

  test('a changed setting applies to the next request', async () => {
    settings = { ...DEFAULTS, requestsPerMinute: 1 };
    assert.equal((await get(limited, '/hello', 'changing')).status, 200);
    assert.equal((await get(limited, '/hello', 'changing')).status, 429);
    settings = { ...DEFAULTS, requestsPerMinute: 0 };
    assert.equal((await get(limited, '/hello', 'changing')).status, 200);
  });

  test('routes marked unlimited answer a caller that is over its limits', async () => {
    settings = { ...DEFAULTS, requestsPerMinute: 1 };
    await get(limited, '/hello', 'health');
    assert.equal((await get(limited, '/hello', 'health')).status, 429);
    for (let i = 0; i < 3; i++) assert.equal((await get(limited, '/healthz', 'health')).status, 200);
  });
});

describe('concurrency and the per-caller queue', () => {
  test('one heavy caller does not delay another: its overflow waits in its own queue or is refused', async (t) => {
    settings = { ...DEFAULTS, concurrentRequests: 2, queuedRequests: 3, queueTimeoutMs: 5000 };
    const heavy = (base: string) => Array.from({ length: 30 }, () => timed(get(base, '/work', 'heavy')));
    const flood = heavy(limited);
    await sleep(20);
    const light = await timed(get(limited, '/work', 'light'));
    const answers = await Promise.all(flood);
    assert.equal(light.status, 200);
    assert.equal(answers.filter((a) => a.status === 200).length, 5, 'two at once and three queued are answered');
    assert.equal(answers.filter((a) => a.status === 429).length, 25);
    // Without limits the same flood fills the shared workers' queue and the light caller waits behind all of it.
    const controlFlood = heavy(unlimited);
    await sleep(20);
    const controlLight = await timed(get(unlimited, '/work', 'light'));
    await Promise.all(controlFlood);
    t.diagnostic(`light caller: ${Math.round(light.ms)} ms with limits, ${Math.round(controlLight.ms)} ms without`);
    assert.ok(controlLight.ms > 450, `control: the light caller waited ${Math.round(controlLight.ms)} ms behind the flood`);
    assert.ok(light.ms < 400, `the light caller waited ${Math.round(light.ms)} ms (control: ${Math.round(controlLight.ms)} ms)`);
  });

  test('a queued request waits for a free slot, gives up after the queue timeout, and a full queue refuses at once', async () => {
    settings = { ...DEFAULTS, concurrentRequests: 1, queuedRequests: 1, queueTimeoutMs: 300 };
    closeGate();
    const holder = get(limited, '/held', 'queue');
    await sleep(50);
    const queued = timed(get(limited, '/held', 'queue'));
    await sleep(50);
    const overflow = await get(limited, '/held', 'queue');
    assert.deepEqual([overflow.status, overflow.headers.get('retry-after'), await overflow.text()], [429, '1', '']);
    const timedOut = await queued;
    assert.equal(timedOut.status, 429);
    assert.ok(timedOut.ms >= 250 && timedOut.ms < 3000, `gave up after ${Math.round(timedOut.ms)} ms`);
    assert.equal((await get(limited, '/hello', 'other')).status, 200, 'another caller is not queued');
    open();
    assert.equal((await holder).status, 200);
    assert.equal((await get(limited, '/held', 'queue')).status, 200, 'the slot was released');
  });

  test('a queued request whose client went away frees its place in the queue', async () => {
    settings = { ...DEFAULTS, concurrentRequests: 1, queuedRequests: 1, queueTimeoutMs: 5000 };
    closeGate();
    const holder = get(limited, '/held', 'leaver');
    await sleep(50);
    const leaving = new AbortController();
    const left = get(limited, '/held', 'leaver', leaving.signal).catch(() => null);
    await sleep(50);
    leaving.abort();
    await left;
    await sleep(50);
    const next = get(limited, '/held', 'leaver');
    await sleep(50);
    open();
    assert.equal((await holder).status, 200);
    assert.equal((await next).status, 200, 'queued, not refused, then answered');
  });
});

describe('memory', () => {
  test('idle callers beyond the bound are forgotten; callers with requests in flight are kept', async () => {
    const bounded = { ...DEFAULTS, requestsPerMinute: 100, concurrentRequests: 1, queuedRequests: 1 };
    const limiter = createCallerLimiter(() => bounded, { maxCallers: 100 });
    const never = { signal: new AbortController().signal };
    const busy = limiter.admit({ key: 'busy', anonymous: false }, never) as Admission;
    assert.equal(busy.ok, true);
    for (let i = 0; i < 10_000; i++) {
      const admission = limiter.admit({ key: `address:${i}`, anonymous: true }, never) as Admission;
      assert.equal(admission.ok, true);
      if (admission.ok) admission.release();
      assert.ok(limiter.trackedCallers <= 100);
    }
    const second = limiter.admit({ key: 'busy', anonymous: false }, never);
    assert.ok(second instanceof Promise, 'the busy caller still has its request in flight, so the next one queues');
    if (busy.ok) busy.release();
    assert.equal((await second).ok, true);
  });
});
