/**
 * Worker threads terminated while native code runs (a Hyperscan compile, a tree-sitter parse): when
 * the call returns into an environment that is going away, no C++ exception may escape. It used
 * to abort the whole process ("terminate called after throwing an instance of 'Napi::Error'").
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs in a child process, so an abort shows as its exit status instead of killing the test runner. */
function terminateRepeatedly(workerCode: string): ReturnType<typeof spawnSync> {
  const script = `
const { Worker } = require('node:worker_threads');
(async () => {
  for (let round = 0; round < 8; round++) {
    const worker = new Worker(${JSON.stringify(workerCode)}, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50 + 60 * round));
    await worker.terminate();
  }
  console.log('survived');
})();`;
  return spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
}

function assertSurvived(child: ReturnType<typeof spawnSync>): void {
  assert.equal(child.signal, null, `the process died of ${child.signal}: ${String(child.stderr)}`);
  assert.equal(child.status, 0, String(child.stderr));
  assert.match(String(child.stdout), /survived/);
}

test('terminating a worker while the Hyperscan addon compiles never aborts the process', () => {
  // Hyperscan spends about a second refusing the first set ("Pattern is too large") and compiles
  // the second, so refusals and database objects are both built as the worker goes away.
  const code = `
const hs = require('./native/hyperscan/index.js');
require('node:worker_threads').parentPort.postMessage('go');
const sets = [['a?'.repeat(250) + 'a'.repeat(250)], ['(?:foo|bar)[a-z]{30}baz'.repeat(40)]];
for (let i = 0; ; i++) hs.compile(sets[i % 2], new Uint8Array(1));`;
  assertSurvived(terminateRepeatedly(code));
});

test('terminating a worker while tree-sitter parses never aborts the process', () => {
  const code = `
const Parser = require('tree-sitter');
const parser = new Parser();
parser.setLanguage(require('tree-sitter-c'));
const source = 'int f(int a) { return a * 2 + g(a, b, c); }\\n'.repeat(20000);
require('node:worker_threads').parentPort.postMessage('go');
for (;;) parser.parse(source).rootNode.descendantsOfType('identifier');`;
  assertSurvived(terminateRepeatedly(code));
});

test('terminating a worker while tree-sitter\'s binding loads never crashes the process', () => {
  // A thread that dies between the binding's per-thread data and its query cursor being set up
  // used to delete the null cursor as it ended: a SIGSEGV (a worker replaced at a deadline, or a
  // pool closed, while a new thread loaded). The stops are spread over the load's own duration.
  const script = `
const { Worker } = require('node:worker_threads');
const code = "const { parentPort } = require('node:worker_threads'); parentPort.postMessage('go'); const t = performance.now(); require('tree-sitter'); parentPort.postMessage(performance.now() - t);";
(async () => {
  const probe = new Worker(code, { eval: true });
  const loadMs = await new Promise((resolve) => probe.on('message', (m) => { if (typeof m === 'number') resolve(m); }));
  await probe.terminate();
  const rounds = 60;
  for (let round = 0; round < rounds; round++) {
    const worker = new Worker(code, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, (round / rounds) * loadMs * 1.5));
    await worker.terminate();
  }
  console.log('survived');
})();`;
  assertSurvived(spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 }));
});
