/**
 * The src-compatible client against a server on loopback that records what it receives:
 * endpoint and token resolution, gzip-compressed GraphQL requests, src api's exit codes, and the
 * streaming search API read as server-sent events.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { resolveEndpoint } from '../../src/cli/remote/endpoint.js';
import { SRC_SEARCH_QUERY } from '../../src/cli/remote/search.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { runCli } from './capture.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let endpoint = '';
let seen: Seen[] = [];
let reply: (req: Seen) => { status: number; type?: string; body: string } = () => ({ status: 200, body: '{}' });
const saved = { endpoint: process.env['SRC_ENDPOINT'], token: process.env['SRC_ACCESS_TOKEN'] };

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(request);
      const answer = reply(request);
      res.writeHead(answer.status, { 'Content-Type': answer.type ?? 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
});

beforeEach(() => {
  seen = [];
  process.env['SRC_ENDPOINT'] = endpoint;
  process.env['SRC_ACCESS_TOKEN'] = 'sgp_local_' + 'a'.repeat(40);
});

after(() => {
  server.close();
  for (const [key, value] of [['SRC_ENDPOINT', saved.endpoint], ['SRC_ACCESS_TOKEN', saved.token]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('resolveEndpoint', () => {
  it('takes SRC_ENDPOINT and SRC_ACCESS_TOKEN over ~/src-config.json, which it reads otherwise', () => {
    const home = makeTempDir('quarry-home');
    try {
      writeFileSync(join(home, 'src-config.json'), JSON.stringify({ endpoint: 'https://file.example/', accessToken: 'filetoken' }));
      assert.deepEqual(resolveEndpoint({}, home), { url: 'https://file.example', accessToken: 'filetoken' });
      assert.deepEqual(resolveEndpoint({ SRC_ENDPOINT: 'http://env.example:7080/', SRC_ACCESS_TOKEN: 'envtoken' }, home), { url: 'http://env.example:7080', accessToken: 'envtoken' });
      assert.deepEqual(resolveEndpoint({}, join(home, 'missing')), { url: 'http://127.0.0.1:7080', accessToken: null });
      assert.throws(() => resolveEndpoint({ SRC_ENDPOINT: 'ftp://x' }, home), /must be an http or https URL/);
      writeFileSync(join(home, 'src-config.json'), '{not json');
      assert.throws(() => resolveEndpoint({}, home), /is not valid JSON/);
    } finally {
      removeDir(home);
    }
  });
});

describe('quarry api', () => {
  it('posts the query gzip-compressed with the token and prints the response', async () => {
    reply = () => ({ status: 200, body: JSON.stringify({ data: { currentUser: { username: 'admin' } } }) });
    const run = await runCli(['api', '-query', 'query($n: String) { currentUser { username } }', '-vars', '{"a": 1}', 'n=x']);
    assert.equal(run.code, 0);
    assert.deepEqual(JSON.parse(run.stdout.join('\n')), { data: { currentUser: { username: 'admin' } } });
    const [request] = seen;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.url, '/.api/graphql');
    assert.equal(request!.headers['content-encoding'], 'gzip');
    assert.equal(request!.headers['authorization'], `token sgp_local_${'a'.repeat(40)}`);
    assert.deepEqual(JSON.parse(gunzipSync(request!.body).toString()), { query: 'query($n: String) { currentUser { username } }', variables: { a: 1, n: 'x' } });
  });

  it('exits 2 when the response carries errors, 1 when the request fails', async () => {
    reply = () => ({ status: 200, body: JSON.stringify({ data: null, errors: [{ message: 'boom' }] }) });
    assert.equal((await runCli(['api', '-query', '{ x }'])).code, 2);
    reply = () => ({ status: 401, type: 'text/plain', body: 'Invalid access token.\n' });
    const denied = await runCli(['api', '-query', '{ x }']);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr.join('\n'), /401/);
    process.env['SRC_ENDPOINT'] = 'http://127.0.0.1:9';
    const unreachable = await runCli(['api', '-query', '{ x }']);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr[0] ?? '', /cannot reach/);
  });

  it('refuses a malformed variable or -vars with a usage error', async () => {
    assert.equal((await runCli(['api', '-query', '{ x }', 'novalue'])).code, 2);
    assert.equal((await runCli(['api', '-query', '{ x }', '-vars', '[1]'])).code, 2);
    assert.equal(seen.length, 0);
  });
});

describe('quarry search against a server', () => {
  it('--remote sends the src search GraphQL query and prints file and repository results', async () => {
    reply = () => ({
      status: 200,
      body: JSON.stringify({ data: { site: { buildVersion: 'q' }, search: { results: {
        results: [
          { __typename: 'FileMatch', repository: { name: 'r' }, file: { path: 'a.go' }, lineMatches: [{ preview: 'func x', lineNumber: 2, offsetAndLengths: [[0, 4]] }] },
          { __typename: 'Repository', name: 'github.com/x/y' },
        ], limitHit: false, resultCount: 2, elapsedMilliseconds: 3,
      } } } }),
    });
    const run = await runCli(['search', '--remote', 'func']);
    assert.equal(run.code, 0);
    assert.deepEqual(run.stdout, ['r › a.go', '  3: func x', 'github.com/x/y']);
    const body = JSON.parse(gunzipSync(seen[0]!.body).toString()) as { query: string; variables: unknown };
    assert.equal(body.query, SRC_SEARCH_QUERY);
    assert.deepEqual(body.variables, { query: 'func' });
  });

  it('--stream reads server-sent events and prints matches as they come', async () => {
    const events = [
      ['matches', [{ type: 'content', repository: 'r', path: 'a.go', lineMatches: [{ line: 'func x', lineNumber: 0, offsetAndLengths: [[0, 4]] }] }]],
      ['progress', { done: true, matchCount: 1, durationMs: 5, skipped: [] }],
      ['done', {}],
    ];
    reply = () => ({ status: 200, type: 'text/event-stream', body: events.map(([e, d]) => `event: ${String(e)}\ndata: ${JSON.stringify(d)}\n\n`).join('') });
    const run = await runCli(['search', '--stream', '--json', 'func x']);
    assert.equal(run.code, 0);
    assert.equal(run.stdout.length, 2);
    assert.equal(JSON.parse(run.stdout[0]!).path, 'a.go');
    assert.equal(JSON.parse(run.stdout[1]!).done, true);
    const url = new URL(seen[0]!.url, endpoint);
    assert.equal(url.pathname, '/.api/search/stream');
    assert.equal(url.searchParams.get('q'), 'func x');
    assert.equal(seen[0]!.headers['accept'], 'text/event-stream');
  });
});
