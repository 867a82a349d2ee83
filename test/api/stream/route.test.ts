/**
 * The stream route with a scripted search service: matches leave before the search resolves,
 * the client's disconnect reaches the search's signal, the last events go with the end, and an
 * internal failure is an `error` event.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { streamSearchRoute, type SearchOutcome } from '../../../src/api/stream/route.js';
import { ANONYMOUS, type Authentication } from '../../../src/auth/principal.js';
import { createError } from '../../../src/errors.js';
import { createHttpServer, type HttpServer } from '../../../src/http/server.js';
import type { FileMatch, SearchResponse } from '../../../src/model/result.js';
import { emptyStats } from '../../../src/model/stats.js';
import type { SearchRequest } from '../../../src/search/contracts.js';
import { readEvents } from '../../http/server-fixture.js';

const MATCH: FileMatch = {
  type: 'content', repository: 'example.com/r', repositoryID: 1, commit: 'c'.repeat(40), branches: ['main'], path: 'a.txt',
  language: 'Text', lineMatches: [{ line: 'hit', lineNumber: 0, offsetAndLengths: [[0, 3]] }], pathMatches: [], matchCount: 1, score: 1,
};

function respond(matches: FileMatch[]): SearchResponse {
  return { matches, matchCount: matches.length, limitHit: false, skipped: [], stats: emptyStats(), query: 'q' };
}

/** Each test installs what the next search does. */
let script: (request: SearchRequest) => Promise<SearchResponse> = async () => respond([]);
const outcomes: SearchOutcome[] = [];
const readers: string[] = [];
let server: HttpServer;
let base = '';

before(async () => {
  // Every caller is anonymous on a public site, carrying a repository access that records what it was asked.
  const principal = { ...ANONYMOUS, canRead: (repo: string) => readers.push(repo) > 0 };
  server = createHttpServer({
    authenticate: (): Authentication => ({ ok: true, principal, via: 'none', scrapeToken: false }),
    maxBodyBytes: () => 1024,
    routes: [streamSearchRoute({
      search: { search: (request) => script(request) },
      site: () => ({ public: true }),
      onSearchEnd: (outcome) => outcomes.push(outcome),
    })],
  });
  base = `http://127.0.0.1:${(await server.listen('127.0.0.1', 0)).port}`;
});

after(async () => {
  await server.close(100);
});

test('the first matches reach the client while the search is still running', async () => {
  let finish: () => void = () => {};
  script = (request) => {
    request.onMatches!([MATCH]);
    return new Promise((resolve) => (finish = () => resolve(respond([MATCH]))));
  };
  const res = await fetch(`${base}/.api/search/stream?q=hit`);
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^event: matches\ndata: \[\{"type":"content","path":"a\.txt"/);
  finish();
  let rest = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
  assert.doesNotMatch(rest, /event: matches/, 'a match already sent is not sent again');
  assert.match(rest, /event: done\ndata: \{\}\n\n$/);
  assert.equal(outcomes.at(-1), 'completed');
});

test('the canRead the search receives is the principal\'s own', async () => {
  let canRead: SearchRequest['canRead'];
  script = async (request) => {
    canRead = request.canRead;
    return respond([]);
  };
  await readEvents(await fetch(`${base}/.api/search/stream?q=hit`));
  assert.equal(canRead?.('example.com/x'), true);
  assert.deepEqual(readers.at(-1), 'example.com/x');
});

test('a client disconnect aborts the signal the search was given', async () => {
  let aborted: () => void = () => {};
  const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
  script = (request) => {
    request.onMatches!([MATCH]);
    return new Promise((_resolve, reject) => request.signal!.addEventListener('abort', () => {
      aborted();
      reject(createError('ABORTED', 'search cancelled'));
    }));
  };
  const client = new AbortController();
  const res = await fetch(`${base}/.api/search/stream?q=hit`, { signal: client.signal });
  await res.body!.getReader().read();
  client.abort();
  await sawAbort;
  while (outcomes.at(-1) !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 10));
});

test('an internal failure is an error event followed by done, without the server\'s paths', async () => {
  script = async () => {
    throw createError('INDEX_CORRUPT', 'index segment /srv/quarry/data/segments/7-x lacks column meta');
  };
  const { events } = await readEvents(await fetch(`${base}/.api/search/stream?q=hit`));
  const message = 'the search index is damaged; an administrator must re-index the repository';
  assert.deepEqual(events.map((e) => [e.name, e.data]), [['error', { message }], ['done', {}]]);
  assert.equal(outcomes.at(-1), 'error');
});

test('a git failure is an error event that quotes neither git nor the data directory', async () => {
  script = async () => {
    throw createError('GIT_FAILED', "git ls-tree failed: fatal: '..' is outside repository at '/srv/quarry/data/mirrors/1.git'");
  };
  const { events } = await readEvents(await fetch(`${base}/.api/search/stream?q=hit`));
  assert.deepEqual(events.map((e) => [e.name, e.data]), [['error', { message: 'git failed to read the repository' }], ['done', {}]]);
});

/** The response's writes, read off a raw socket: its chunks, or its whole body when it was one write (then with a Content-Length). */
async function rawChunks(path: string): Promise<string[]> {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  let raw = '';
  for await (const data of socket) raw += (data as Buffer).toString('utf8');
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  const body = raw.slice(head.length + 4);
  if (/^content-length: /im.test(head)) return [body];
  const chunks: string[] = [];
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, lineEnd), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`not a chunked body at ${at}: ${JSON.stringify(raw)}`);
    if (size === 0) return chunks;
    chunks.push(body.slice(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

test('a search that answers at once is one write: its matches, filters, final progress and done, with the end', async () => {
  script = async () => respond([MATCH]);
  const chunks = await rawChunks('/.api/search/stream?q=hit');
  assert.equal(chunks.length, 1, `chunks: ${JSON.stringify(chunks)}`);
  assert.deepEqual([...chunks[0]!.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ['matches', 'filters', 'progress', 'done']);
});

test('matches found while the search runs go out before it ends, the rest with the end', async () => {
  let finish: () => void = () => {};
  script = (request) => {
    request.onMatches!([MATCH]);
    setTimeout(() => finish(), 50);
    return new Promise((resolve) => (finish = () => resolve(respond([MATCH, { ...MATCH, path: 'b.txt' }]))));
  };
  const chunks = await rawChunks('/.api/search/stream?q=hit');
  assert.equal(chunks.length, 2, `chunks: ${JSON.stringify(chunks)}`);
  assert.deepEqual([...chunks[0]!.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ['matches', 'progress']);
  assert.deepEqual([...chunks[1]!.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]), ['matches', 'filters', 'progress', 'done']);
  assert.match(chunks[1]!, /"path":"b\.txt"/);
});
