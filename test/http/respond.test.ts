/**
 * The streaming writer over a real socket: it waits while a slow client's socket is backed up,
 * delivers every byte once the client reads, and reports a client that went away.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';

const CHUNK = 'x'.repeat(128 * 1024);
const CHUNKS = 256;
let written = 0;
let refused = 0;
let server: HttpServer;
let base = '';

before(async () => {
  server = createHttpServer({
    maxBodyBytes: () => 1024,
    routes: [{
      method: 'GET',
      path: '/flood',
      async handler(_request, reply) {
        written = 0;
        refused = 0;
        const writer = reply.stream(200, { 'Content-Type': 'application/octet-stream' });
        for (let i = 0; i < CHUNKS; i++) {
          if (!(await writer.write(CHUNK))) {
            refused++;
            return;
          }
          written++;
        }
        writer.end();
      },
    }],
  });
  base = `http://127.0.0.1:${(await server.listen('127.0.0.1', 0)).port}`;
});

after(async () => {
  await server.close(100);
});

test('writes wait for a backed-up socket and every byte arrives once the client reads', async () => {
  const res = await fetch(`${base}/flood`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(written < CHUNKS, `the writer paused (${written} of ${CHUNKS} chunks written while the client did not read)`);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += chunk.length;
  assert.equal(bytes, CHUNK.length * CHUNKS);
  assert.equal(written, CHUNKS);
});

test('a client that goes away mid-stream makes the next write report false', async () => {
  const client = new AbortController();
  const res = await fetch(`${base}/flood`, { signal: client.signal });
  await res.body!.getReader().read();
  client.abort();
  for (let i = 0; i < 100 && refused === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(refused, 1);
  assert.ok(written < CHUNKS);
  assert.equal(server.requestsInFlight, 0);
});
