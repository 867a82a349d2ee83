/**
 * The conformance tests' auth proxy against a stand-in upstream: it must add the token only where
 * none is sent, keep Host, Origin, method, path and body as the client sent them, and stream answers.
 */
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startAuthProxy, type AuthProxy } from './auth-proxy.js';

let upstream: Server;
let proxy: AuthProxy;
/** Resolved by the test once the client has the first SSE event, so the upstream can finish. */
let releaseStream: () => void = () => {};

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function send(method: string, path: string, headers: Record<string, string>, body = '', onChunk?: (chunk: string) => void): Promise<Answer> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        onChunk?.(chunk.toString());
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

before(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/sse') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: first\n\n');
        new Promise<void>((resolve) => (releaseStream = resolve)).then(() => res.end('data: second\n\n'));
        return;
      }
      res.writeHead(207, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startAuthProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, 'sgp_local_test');
});

after(async () => {
  await proxy.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('auth proxy', () => {
  it('adds the token and forwards Host, Origin, method, path and body verbatim', async () => {
    const answer = await send('PUT', '/.api/mcp?x=1', { Host: 'evil.example.com', Origin: 'http://evil.example.com', 'X-Custom': 'kept' }, '{"a":1}');
    assert.equal(answer.status, 207);
    assert.equal(answer.headers['x-upstream'], 'yes');
    const seen = JSON.parse(answer.body) as { method: string; url: string; headers: IncomingHttpHeaders; body: string };
    assert.deepEqual(
      { method: seen.method, url: seen.url, host: seen.headers.host, origin: seen.headers.origin, custom: seen.headers['x-custom'], authorization: seen.headers.authorization, body: seen.body },
      { method: 'PUT', url: '/.api/mcp?x=1', host: 'evil.example.com', origin: 'http://evil.example.com', custom: 'kept', authorization: 'token sgp_local_test', body: '{"a":1}' },
    );
  });

  it('keeps credentials the client sent itself', async () => {
    const answer = await send('POST', '/', { Authorization: 'Bearer mine' });
    assert.equal((JSON.parse(answer.body) as { headers: IncomingHttpHeaders }).headers.authorization, 'Bearer mine');
  });

  it('streams an SSE answer: the first event arrives while the upstream still holds the response', { timeout: 5000 }, async () => {
    const chunks: string[] = [];
    const answer = await send('POST', '/sse', {}, '', (chunk) => {
      chunks.push(chunk);
      if (chunk.includes('first')) releaseStream();
    });
    assert.equal(answer.headers['content-type'], 'text/event-stream');
    assert.equal(answer.body, 'data: first\n\ndata: second\n\n');
    assert.ok(chunks.length >= 2, 'two separate chunks, not one buffered body');
  });

  it('records each exchange', () => {
    const sse = proxy.exchanges.find((e) => e.path === '/sse');
    assert.deepEqual(sse, { method: 'POST', path: '/sse', requestBody: '', status: 200, contentType: 'text/event-stream' });
    assert.equal(proxy.exchanges.find((e) => e.method === 'PUT')?.requestBody, '{"a":1}');
  });

  it('answers 502 when the upstream is gone', async () => {
    const dead = await startAuthProxy('http://127.0.0.1:1', 't');
    const { port } = new URL(dead.url);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, method: 'GET', path: '/' }, (res) => resolve(res.statusCode!)).on('error', reject).end();
    });
    await dead.close();
    assert.equal(status, 502);
  });
});
