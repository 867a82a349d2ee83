/**
 * A pool thread that dies outside a task (here: its modules fail to load) must not take the
 * process down (issue 12): piscina reports such a death as an 'error' event, which ends the
 * process when nobody listens. Its task fails instead, and the pool still closes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./thread-error.child.js', import.meta.url));

test('threads that die outside a task fail its task, not the process', () => {
  const child = spawnSync(process.execPath, [CHILD], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.signal, null, `the process died of ${child.signal}: ${child.stderr}`);
  assert.equal(child.status, 0, `exit code ${child.status}: ${child.stderr}`);
  const { outcome } = JSON.parse(child.stdout) as { outcome: string };
  assert.match(outcome, /^failed: /);
});
