/**
 * Closing an engine pool whose workers were terminated at their deadlines (issue 12: no teardown
 * may take the process down): close() settles promptly, its wait keeps the process alive (a
 * script that only awaits it must not end with an unsettled top-level await, exit code 13), and
 * every worker thread is gone afterwards.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./close-after-terminations.child.js', import.meta.url));

/** Far below the 30 s a thread that died loading used to hold close() for; loaded machines take a few seconds. */
const PROMPT_CLOSE_MS = 15_000;

test('close() after deadline terminations settles promptly, keeps the process alive until then, and leaves no worker', () => {
  const child = spawnSync(process.execPath, [CHILD], { encoding: 'utf8', timeout: 180_000 });
  assert.equal(child.signal, null, `the process died of ${child.signal}: ${child.stderr}`);
  assert.equal(child.status, 0, `exit code ${child.status} (13: close() was still pending when the event loop emptied): ${child.stderr}`);
  const report = JSON.parse(child.stdout) as { closeMs: number; threadsBefore: number; threadsAfter: number; outcomes: string[] };
  assert.ok(report.outcomes.includes('TIMEOUT'), `no worker was terminated: ${report.outcomes.join(', ')}`);
  assert.ok(report.closeMs < PROMPT_CLOSE_MS, `close() took ${report.closeMs} ms`);
  assert.ok(report.threadsAfter <= report.threadsBefore, `threads: ${report.threadsBefore} before the pool, ${report.threadsAfter} after close()`);
});
