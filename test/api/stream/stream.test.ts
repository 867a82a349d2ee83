/**
 * GET /.api/search/stream against a real server and data directory: exact SSE framing, match and
 * filter shapes, alerts, authentication, matches flushed while a slow shard still runs, and a
 * client disconnect cancelling the search in the worker pool.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { metricValue, readEvents, startServerFixture, type ServerFixture } from '../../http/server-fixture.js';

let fixture: ServerFixture;

before(async () => {
  fixture = await startServerFixture({
    'example.com/alpha': { 'src/a.ts': 'const needle = 1;\nlet needle2 = needle;\n\nfunction other() {}\n' },
    'example.com/beta': { 'main.go': 'package main\n\n// a needle in go\n' },
    'example.com/evil': { 'evil.txt': `${'a'.repeat(40)}\n` },
    'example.com/calm': { 'calm.txt': 'calm content\n' },
  }, { siteConfig: '{"auth.public": true}' });
});

after(async () => {
  await fixture.close();
});

function stream(params: Record<string, string>, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${fixture.url}/.api/search/stream?${new URLSearchParams(params)}`, { headers: { Accept: 'text/event-stream', ...headers }, ...(signal ? { signal } : {}) });
}

test('events are framed exactly as event/data/blank line, with progress done and then done last', async () => {
  const res = await stream({ q: 'needle' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.equal(res.headers.get('x-accel-buffering'), 'no');
  const { raw, events } = await readEvents(res);
  assert.match(raw, /^(event: (matches|progress|filters|alert|error|done)\ndata: [^\n]+\n\n)+$/);
  assert.deepEqual(events.at(-1), { ...events.at(-1)!, name: 'done', data: {} });
  const progress = events.filter((e) => e.name === 'progress').at(-1)!.data as { done: boolean; matchCount: number; repositoriesCount: number };
  assert.equal(progress.done, true);
  assert.equal(progress.matchCount, 3);
  assert.equal(progress.repositoriesCount, 2);
  const matches = events.filter((e) => e.name === 'matches').flatMap((e) => e.data as Record<string, unknown>[]);
  const alpha = matches.find((m) => m['path'] === 'src/a.ts')!;
  assert.equal(alpha['type'], 'content');
  assert.equal(alpha['repository'], 'example.com/alpha');
  assert.equal(alpha['language'], 'TypeScript');
  assert.deepEqual(alpha['lineMatches'], [
    { line: 'const needle = 1;', lineNumber: 0, offsetAndLengths: [[6, 6]] },
    { line: 'let needle2 = needle;', lineNumber: 1, offsetAndLengths: [[4, 6], [14, 6]] },
  ]);
  assert.equal(alpha['chunkMatches'], undefined);
  const filters = events.find((e) => e.name === 'filters')!.data as { value: string; count: number; kind: string }[];
  assert.deepEqual(filters.filter((f) => f.kind === 'repo').map((f) => [f.value, f.count]), [['repo:^example\\.com/alpha$', 2], ['repo:^example\\.com/beta$', 1]]);
  assert.deepEqual(filters.filter((f) => f.kind === 'lang').map((f) => [f.value, f.count]), [['lang:typescript', 2], ['lang:go', 1]]);
  // Top-level directories only: beta's main.go lies in none.
  assert.deepEqual(filters.filter((f) => f.kind === 'file').map((f) => [f.value, f.count]), [['file:^src/', 2]]);
});

test('symbol results bring a facet per symbol kind, as select:symbol.<kind>', async () => {
  const { events } = await readEvents(await stream({ q: 'type:symbol other' }));
  const filters = events.find((e) => e.name === 'filters')!.data as { value: string; label: string; count: number; kind: string }[];
  assert.deepEqual(filters.filter((f) => f.kind === 'symbol type').map((f) => [f.value, f.label, f.count]), [['select:symbol.function', 'function', 1]]);
});

test('cm=t adds chunk matches, max-line-len cuts lines, display limits what is sent but not the count', async () => {
  const chunked = await readEvents(await stream({ q: 'needle repo:alpha', cm: 't', cl: '0', 'max-line-len': '10' }));
  const [match] = chunked.events.filter((e) => e.name === 'matches').flatMap((e) => e.data as Record<string, unknown>[]);
  assert.deepEqual(match!['lineMatches'], [
    { line: 'const need', lineNumber: 0, offsetAndLengths: [[6, 4]] },
    { line: 'let needle', lineNumber: 1, offsetAndLengths: [[4, 6]] },
  ]);
  assert.deepEqual(match!['chunkMatches'], [{
    content: 'const need\nlet needle',
    contentStart: { offset: 0, line: 0, column: 0 },
    ranges: [
      { start: { offset: 6, line: 0, column: 6 }, end: { offset: 10, line: 0, column: 10 } },
      { start: { offset: 15, line: 1, column: 4 }, end: { offset: 21, line: 1, column: 10 } },
    ],
  }]);
  const limited = await readEvents(await stream({ q: 'needle', display: '1' }));
  assert.equal(limited.events.filter((e) => e.name === 'matches').flatMap((e) => e.data as unknown[]).length, 1);
  assert.equal((limited.events.filter((e) => e.name === 'progress').at(-1)!.data as { matchCount: number }).matchCount, 3);
});

/** The file's lines `from`..`to` (0-based, inclusive) as one chunk's content. */
function linesOf(file: string, from: number, to: number): string {
  return file.split('\n').slice(from, to + 1).join('\n');
}

test('chunk matches carry cl lines of context either side from the file (1 by default, as Sourcegraph), cut as matched lines are; none without cm', async () => {
  const file = ['first line', 'second', 'needle three', 'four', 'five', 'six', 'seven', 'needle eight', 'nine', '', 'eleven'].join('\n') + '\n';
  const ctx = await startServerFixture({ 'example.com/ctx': { 'ctx.txt': file } }, { siteConfig: '{"auth.public": true}' });
  try {
    const chunksFor = async (params: Record<string, string>): Promise<{ content: string; contentStart: { line: number }; ranges: { start: { offset: number; line: number; column: number } }[] }[] | undefined> => {
      const res = await fetch(`${ctx.url}/.api/search/stream?${new URLSearchParams({ q: 'needle', ...params })}`);
      const [match] = (await readEvents(res)).events.filter((e) => e.name === 'matches').flatMap((e) => e.data as Record<string, unknown>[]);
      return match!['chunkMatches'] as never;
    };
    // One line either side: two chunks, lines 1-3 and 6-8.
    const byDefault = (await chunksFor({ cm: 't' }))!;
    assert.deepEqual(byDefault.map((c) => [c.contentStart.line, c.content]), [[1, linesOf(file, 1, 3)], [6, linesOf(file, 6, 8)]]);
    // Offsets count from the chunk's start: the range lies on the chunk's second line.
    assert.deepEqual(byDefault.map((c) => c.ranges.map((r) => [r.start.line, r.start.column, r.start.offset])), [[[2, 0, 'second\n'.length]], [[7, 0, 'seven\n'.length]]]);
    // Three either side: the windows meet (lines 0-10) and make one chunk, ending at the file's last line.
    const wide = (await chunksFor({ cm: 't', cl: '3' }))!;
    assert.deepEqual(wide.map((c) => [c.contentStart.line, c.content]), [[0, linesOf(file, 0, 10)]]);
    assert.deepEqual(wide[0]!.ranges.map((r) => [r.start.line, r.start.offset]), [[2, file.indexOf('needle three')], [7, file.indexOf('needle eight')]]);
    // Context lines are cut at max-line-len as matched lines are.
    const cut = (await chunksFor({ cm: 't', cl: '1', 'max-line-len': '4' }))!;
    assert.deepEqual(cut.map((c) => c.content), ['seco\nneed\nfour', 'seve\nneed\nnine']);
    assert.equal(await chunksFor({ cl: '2' }), undefined);
  } finally {
    await ctx.close();
  }
});

test('a query the engine cannot process answers 200 with an alert, then done; bad parameters are a 400', async () => {
  const { events } = await readEvents(await stream({ q: 'needle select:file.owners' }));
  assert.deepEqual(events.map((e) => e.name), ['alert', 'progress', 'done']);
  const alert = events[0]!.data as { title: string; description: string; proposedQueries: unknown[] };
  assert.equal(alert.title, 'Unable To Process Query');
  assert.match(alert.description, /select:file\.owners/);
  const bad = await stream({ q: 'needle', t: 'fuzzy' });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /unknown pattern type/);
});

test('a bad token is refused with 401 before any event; the initial admin token is accepted', async () => {
  const refused = await stream({ q: 'needle' }, { Authorization: 'token sgp_local_0000000000000000000000000000000000000000' });
  assert.equal(refused.status, 401);
  assert.equal(await refused.text(), 'Invalid access token.\n');
  const token = fixture.adminToken;
  const admitted = await readEvents(await stream({ q: 'needle' }, { Authorization: `token ${token}` }));
  assert.equal(admitted.events.at(-1)!.name, 'done');
});

test('matches from a fast shard are flushed while a slow shard is still searching', async () => {
  const res = await stream({ q: 'timeout:2s patterntype:regexp (a)a*a*a*a*a*a*a*a*a*a*a*a*\\1x|calm' });
  const { events } = await readEvents(res);
  const first = events.find((e) => e.name === 'matches')!;
  const done = events.find((e) => e.name === 'progress' && (e.data as { done: boolean }).done)!;
  assert.deepEqual((first.data as { path: string }[]).map((m) => m.path), ['calm.txt']);
  assert.ok(done.at - first.at > 1000, `first matches ${Math.round(done.at - first.at)} ms before the search completed`);
  assert.ok(events.indexOf(first) < events.indexOf(done));
});

test('a client that disconnects mid-stream cancels its search in the pool', async () => {
  const client = new AbortController();
  const started = performance.now();
  const res = await stream({ q: 'timeout:30s patterntype:regexp (a)a*a*a*a*a*a*a*a*a*a*a*a*\\1x|calm' }, {}, client.signal);
  const reader = res.body!.getReader();
  await reader.read();
  client.abort();
  let cancelled: number | undefined;
  while (cancelled === undefined && performance.now() - started < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancelled = metricValue(await (await fetch(`${fixture.url}/metrics`, { headers: { Authorization: `token ${fixture.adminToken}` } })).text(), 'quarry_stream_searches_total{outcome="cancelled"}');
  }
  assert.equal(cancelled, 1);
  assert.ok(performance.now() - started < 10_000, 'cancelled long before the 30 s deadline');
  const text = await (await fetch(`${fixture.url}/metrics`, { headers: { Authorization: `token ${fixture.adminToken}` } })).text();
  assert.equal(metricValue(text, 'quarry_http_requests_total{route="/.api/search/stream",status="499"}'), 1);
  const next = await readEvents(await stream({ q: 'calm' }));
  assert.equal(next.events.filter((e) => e.name === 'matches').length, 1);
});
