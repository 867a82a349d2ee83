/**
 * /healthz and /metrics on a real server over a real data directory: health answers anyone;
 * metrics answer only a site admin or the scrape token, name no repository, and keep a bounded
 * label set however many distinct paths are requested.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { PhaseMeter, ProgressFile } from '../../src/indexer/index-progress.js';
import { restrictRepo } from '../../src/store/repo-permissions.js';
import { createAccessToken } from '../../src/store/tokens.js';
import { createUser } from '../../src/store/users.js';
import { metricValue, startServerFixture, type ServerFixture } from './server-fixture.js';

const SCRAPE_TOKEN = 'scrape-0123456789abcdef';
const HIDDEN = 'example.com/hidden-vault';
let fixture: ServerFixture;
let alice = '';
let adminMcpOnly = '';

before(async () => {
  fixture = await startServerFixture({
    'example.com/alpha': { 'a.ts': 'export const alpha = 1;\n', 'b.md': '# alpha\n' },
    [HIDDEN]: { 'plan.txt': 'the vault plan\n' },
  }, {
    metricsToken: SCRAPE_TOKEN,
    prepare(store) {
      const user = createUser(store, { username: 'alice' });
      alice = createAccessToken(store, { userId: user.id, creatorId: user.id, scopes: ['user:all'], note: 'test' }).token;
      adminMcpOnly = createAccessToken(store, { userId: 1, creatorId: 1, scopes: ['mcp'], note: 'test' }).token;
      restrictRepo(store, HIDDEN, { users: [], roles: [] });
    },
  });
});

after(async () => {
  await fixture.close();
});

function scrape(authorization?: string): Promise<Response> {
  return fetch(`${fixture.url}/metrics`, authorization === undefined ? {} : { headers: { Authorization: authorization } });
}

test('GET /healthz answers 200 ok to anyone while the store, catalog and pool are up', async () => {
  const res = await fetch(`${fixture.url}/healthz`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'ok\n');
});

test('GET /metrics refuses callers who are neither a site admin nor the scraper', async () => {
  const anonymous = await scrape();
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('vary'), 'Authorization');
  assert.doesNotMatch(await anonymous.text(), /quarry_/);
  const user = await scrape(`token ${alice}`);
  assert.deepEqual([user.status, await user.text()], [403, 'must be site admin\n']);
  const wrongScope = await scrape(`token ${adminMcpOnly}`);
  assert.deepEqual([wrongScope.status, await wrongScope.text()], [401, 'Invalid access token.\n']);
  const wrongSecret = await scrape(`Bearer ${SCRAPE_TOKEN}x`);
  assert.deepEqual([wrongSecret.status, await wrongSecret.text()], [401, 'Invalid access token.\n']);
  assert.equal((await scrape(`token ${fixture.adminToken}`)).status, 200);
  assert.equal((await scrape(`Bearer ${SCRAPE_TOKEN}`)).status, 200);
});

test('GET /metrics is Prometheus text with index totals and names no repository', async () => {
  await fetch(`${fixture.url}/healthz`);
  const res = await scrape(`Bearer ${SCRAPE_TOKEN}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  assert.deepEqual(exposition(text), []);
  assert.ok((metricValue(text, 'quarry_http_requests_total{route="/healthz",status="200"}') ?? 0) >= 2);
  assert.equal(metricValue(text, 'quarry_pool_threads'), 2);
  assert.equal(metricValue(text, 'quarry_pool_queue_depth'), 0);
  assert.equal(metricValue(text, 'quarry_index_repositories'), 2);
  assert.equal(metricValue(text, 'quarry_index_files'), 3);
  assert.equal(metricValue(text, 'quarry_index_bytes'), 'export const alpha = 1;\n'.length + '# alpha\n'.length + 'the vault plan\n'.length);
  assert.ok((metricValue(text, 'quarry_uptime_seconds') ?? -1) >= 0);
  // Where memory is: the process, its main thread, and each lane of workers (the side lane starts with a heavy caller).
  assert.ok((metricValue(text, 'quarry_process_resident_bytes') ?? 0) > (metricValue(text, 'quarry_main_heap_used_bytes') ?? Infinity));
  assert.ok((metricValue(text, 'quarry_main_heap_total_bytes') ?? 0) > 0);
  assert.ok((metricValue(text, 'quarry_worker_heap_used_bytes{pool="engine",lane="main"}') ?? -1) >= 0);
  assert.ok((metricValue(text, 'quarry_worker_threads_stopped_total{pool="engine",lane="side"}') ?? -1) >= 0);
  assert.ok((metricValue(text, 'quarry_main_loop_delay_seconds{quantile="0.99"}') ?? -1) >= 0);
  assert.match(text, /^quarry_http_request_duration_seconds_bucket\{route="\/healthz",le="\+Inf"\} \d+$/m);
  assert.doesNotMatch(text, /hidden-vault|example\.com|repo=/);
});

test('GET /metrics shows the index phases of runs under way, read from their progress files, by phase only', async () => {
  const idle = await (await scrape(`Bearer ${SCRAPE_TOKEN}`)).text();
  for (const phase of ['text', 'symbols', 'history']) assert.equal(metricValue(idle, `quarry_index_phase_runs{phase="${phase}"}`), 0, phase);
  assert.equal(metricValue(idle, 'quarry_index_symbols_pending_repositories'), 0);
  const progress = new ProgressFile(fixture.dataDir, HIDDEN, 4242);
  try {
    const meter = new PhaseMeter('symbols', 'files', 10, progress.listener);
    meter.update(4, 4096);
    // Updates are written at most every 250 ms: this one follows the phase's start at once.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const busy = await (await scrape(`Bearer ${SCRAPE_TOKEN}`)).text();
    assert.deepEqual(exposition(busy), []);
    assert.equal(metricValue(busy, 'quarry_index_phase_runs{phase="symbols"}'), 1);
    assert.equal(metricValue(busy, 'quarry_index_phase_done{phase="symbols"}'), 4);
    assert.equal(metricValue(busy, 'quarry_index_phase_total{phase="symbols"}'), 10);
    assert.ok((metricValue(busy, 'quarry_index_phase_rate{phase="symbols"}') ?? 0) > 0);
    assert.ok((metricValue(busy, 'quarry_index_phase_eta_seconds{phase="symbols"}') ?? 0) > 0);
    assert.equal(metricValue(busy, 'quarry_index_phase_runs{phase="text"}'), 0);
    assert.doesNotMatch(busy, /hidden-vault|repo=/);
  } finally {
    progress.remove();
  }
  const done = await (await scrape(`Bearer ${SCRAPE_TOKEN}`)).text();
  assert.equal(metricValue(done, 'quarry_index_phase_runs{phase="symbols"}'), 0);
});

test('distinct paths under a wildcard route share its template label: 200 of them do not grow /metrics', async () => {
  const probe = (): Promise<Response> => fetch(`${fixture.url}/.api/mcp/${randomBytes(12).toString('hex')}`, { method: 'POST', headers: { Authorization: `token ${fixture.adminToken}` } });
  assert.equal((await probe()).status, 404);
  const before = await (await scrape(`Bearer ${SCRAPE_TOKEN}`)).text();
  const paths: string[] = [];
  for (let i = 0; i < 200; i++) {
    const res = await probe();
    paths.push(new URL(res.url).pathname);
    assert.equal(res.status, 404);
  }
  const after = await (await scrape(`Bearer ${SCRAPE_TOKEN}`)).text();
  assert.deepEqual(sampleNames(after), sampleNames(before));
  assert.ok(after.length - before.length < 200, `/metrics grew from ${before.length} to ${after.length} bytes`);
  assert.equal((metricValue(after, 'quarry_http_requests_total{route="/.api/mcp/*",status="404"}') ?? 0) - (metricValue(before, 'quarry_http_requests_total{route="/.api/mcp/*",status="404"}') ?? 0), 200);
  assert.ok(paths.every((path) => !after.includes(path)));
});

/** Every sample's name and labels, without its value. */
function sampleNames(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.slice(0, line.lastIndexOf(' '))).sort();
}

/** Problems with the text format, one string each: empty when valid. */
function exposition(text: string): string[] {
  const problems: string[] = [];
  const typed = new Map<string, string>();
  if (!text.endsWith('\n')) problems.push('no final newline');
  for (const line of text.trimEnd().split('\n')) {
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      if (typed.has(type[1]!)) problems.push(`second TYPE for ${type[1]}`);
      typed.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*\})? (\S+)$/.exec(line);
    if (!sample) {
      problems.push(`bad line: ${line}`);
      continue;
    }
    const family = typed.has(sample[1]!) ? sample[1]! : sample[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(family)) problems.push(`sample before its TYPE: ${line}`);
    if (Number.isNaN(Number(sample[3]))) problems.push(`bad value: ${line}`);
  }
  return problems;
}
