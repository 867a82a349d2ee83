/**
 * /healthz and /metrics on a real server over a real data directory: health answers `ok`, and
 * the metrics text is valid Prometheus exposition with the families operators rely on.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { metricValue, startServerFixture, type ServerFixture } from './server-fixture.js';

let fixture: ServerFixture;

before(async () => {
  fixture = await startServerFixture({ 'example.com/alpha': { 'a.ts': 'export const alpha = 1;\n', 'b.md': '# alpha\n' } });
});

after(async () => {
  await fixture.close();
});

test('GET /healthz answers 200 ok while the store, catalog and pool are up', async () => {
  const res = await fetch(`${fixture.url}/healthz`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'ok\n');
});

test('GET /metrics is Prometheus text: TYPE before samples, valid names, parseable values', async () => {
  await fetch(`${fixture.url}/healthz`);
  const res = await fetch(`${fixture.url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  assert.deepEqual(exposition(text), []);
  assert.ok((metricValue(text, 'quarry_http_requests_total{route="/healthz",status="200"}') ?? 0) >= 2);
  assert.equal(metricValue(text, 'quarry_pool_threads'), 2);
  assert.equal(metricValue(text, 'quarry_pool_queue_depth'), 0);
  assert.equal(metricValue(text, 'quarry_index_files{repo="example.com/alpha"}'), 2);
  assert.equal(metricValue(text, 'quarry_index_bytes{repo="example.com/alpha"}'), 'export const alpha = 1;\n'.length + '# alpha\n'.length);
  assert.ok((metricValue(text, 'quarry_uptime_seconds') ?? -1) >= 0);
  assert.match(text, /^quarry_http_request_duration_seconds_bucket\{route="\/healthz",le="\+Inf"\} \d+$/m);
});

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
