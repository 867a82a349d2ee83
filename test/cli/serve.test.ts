/**
 * `quarry serve` as a child process: it announces the native binding and the admin token, refuses
 * the pure-JS fallback unless allowed, and on SIGTERM finishes the request in flight and exits 0.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, afterEach, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { addAndIndex, createEngineFixture } from '../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { readEvents } from '../http/server-fixture.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));
let source = '';
let dataDir = '';

before(async () => {
  source = makeTempDir('quarry-serve-src');
  initRepo(source);
  writeFiles(source, { 'evil.txt': `${'a'.repeat(40)}\n`, 'calm.txt': 'calm content\n' });
  commitAll(source, 'files');
  const fixture = await createEngineFixture({ pool: 'in-thread' });
  await addAndIndex(fixture, 'example.com/serve', source);
  await fixture.engine.close();
  dataDir = fixture.dataDir;
});

// A failed assertion must not leave a server running: the test process would wait on it forever.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

after(() => {
  removeDir(source);
  removeDir(dataDir);
});

interface Served {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  /** The exit code, or the name of the signal that ended the process. */
  readonly exit: Promise<number | string>;
}

function serve(args: string[], env: NodeJS.ProcessEnv = {}): Served {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', dataDir, '--listen', '127.0.0.1:0', '--threads', '1', ...args], {
    env: { ...process.env, QUARRY_SYNC_INTERVAL_MS: '3600000', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (text: string) => stdout.push(text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => stderr.push(text));
  return { child, stdout, stderr, exit: once(child, 'exit').then(([code, signal]) => (code as number | null) ?? (signal as string)) };
}

async function listening(served: Served): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const url = /Quarry listening on (http:\/\/\S+)/.exec(served.stdout.join(''))?.[1];
    if (url) return url;
    if (served.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not start: ${served.stderr.join('')}`);
}

test('serve prints its address with the native binding and the first admin token, and SIGTERM drains an in-flight search', async () => {
  const served = serve([]);
  const url = await listening(served);
  const out = served.stdout.join('');
  assert.match(out, /Quarry listening on http:\/\/127\.0\.0\.1:\d+ \(uWebSockets\.js native\)/);
  assert.match(out, /Created site admin "admin"[^\n]*\n {2}sgp_local_[0-9a-f]{40}\n/);
  const token = /\n {2}(sgp_local_[0-9a-f]{40})\n/.exec(out)![1]!;
  const started = performance.now();
  const inFlight = fetch(`${url}/.api/search/stream?${new URLSearchParams({ q: 'timeout:1500ms patterntype:regexp (a)a*a*a*a*a*a*a*a*a*a*a*a*\\1x|calm' })}`, { headers: { Authorization: `token ${token}` } });
  await new Promise((resolve) => setTimeout(resolve, 400));
  served.child.kill('SIGTERM');
  const { events } = await readEvents(await inFlight);
  assert.ok(performance.now() - started > 1000, 'the search ran to its deadline after SIGTERM');
  assert.equal(events.at(-1)!.name, 'done');
  const progress = events.find((e) => e.name === 'progress' && (e.data as { done: boolean }).done)!.data as { skipped: { reason: string }[] };
  assert.ok(progress.skipped.some((s) => s.reason === 'shard-timeout'));
  assert.equal(await served.exit, 0);
  assert.match(served.stderr.join(''), /SIGTERM: shutting down/);
  await assert.rejects(fetch(`${url}/healthz`));
});

test('a second start on the same data directory prints no admin token', async () => {
  const served = serve([]);
  await listening(served);
  assert.doesNotMatch(served.stdout.join(''), /sgp_local_/);
  served.child.kill('SIGINT');
  assert.equal(await served.exit, 0, served.stderr.join(''));
});

test('serve refuses the pure-JS fallback unless --allow-js-fallback, and then says so loudly', async () => {
  const refused = serve([], { UWS_USE_FALLBACK: '1' });
  assert.equal(await refused.exit, 1);
  assert.match(refused.stderr.join(''), /fell back to its slow pure-JS server; refusing to serve \(pass --allow-js-fallback/);
  const allowed = serve(['--allow-js-fallback'], { UWS_USE_FALLBACK: '1' });
  const url = await listening(allowed);
  assert.match(allowed.stdout.join(''), /\(uWebSockets\.js js-fallback\)/);
  assert.match(allowed.stderr.join(''), /WARNING: .*SLOW pure-JS fallback/);
  assert.equal(await (await fetch(`${url}/healthz`)).text(), 'ok\n');
  allowed.child.kill('SIGTERM');
  assert.equal(await allowed.exit, 0);
});

test('a malformed --listen is a usage error', async () => {
  const served = serve(['--listen', 'localhost']);
  assert.equal(await served.exit, 2);
  assert.match(served.stderr.join(''), /listen address must be HOST:PORT/);
});

test('a port already in use is a usage error and the process exits instead of hanging', async () => {
  const first = serve([]);
  const url = await listening(first);
  const second = serve(['--listen', url.replace('http://', '')]);
  assert.equal(await second.exit, 2);
  assert.match(second.stderr.join(''), /cannot listen on 127\.0\.0\.1:\d+/);
  first.child.kill('SIGTERM');
  assert.equal(await first.exit, 0);
});
