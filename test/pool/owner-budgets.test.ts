/** Per-caller buckets of guard time: overdrawn once, refilled with time, callers apart, internal work free. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { OwnerBudgets } from '../../src/pool/owner-budgets.js';
import { UNOWNED } from '../../src/pool/work-owner.js';

it('lets a caller overdraw its bucket once, then makes it wait for the refill', () => {
  let now = 1_000_000;
  const budgets = new OwnerBudgets(4000, () => now);
  assert.equal(budgets.waitMs('token:1'), 0);
  budgets.charge('token:1', 2000);
  assert.equal(budgets.waitMs('token:1'), 0);
  budgets.charge('token:1', 4000);
  // 2000 ms below zero at 4000 ms per minute: 30 s to wait.
  assert.ok(Math.abs(budgets.waitMs('token:1') - 30_000) <= 1, String(budgets.waitMs('token:1')));
  assert.equal(budgets.waitMs('token:2'), 0, 'another caller is not held up');
  now += 29_000;
  assert.ok(budgets.waitMs('token:1') > 0);
  now += 2_000;
  assert.equal(budgets.waitMs('token:1'), 0);
  now += 10 * 60_000;
  budgets.charge('token:1', 3999);
  assert.equal(budgets.waitMs('token:1'), 0, 'the bucket holds one minute at most, and is refilled to it');
});

it('never limits work without a caller', () => {
  const budgets = new OwnerBudgets(10);
  budgets.charge(UNOWNED, 1_000_000);
  assert.equal(budgets.waitMs(UNOWNED), 0);
});
