import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { parseDate } from '../../src/history/dates.js';

const NOW = Date.UTC(2024, 2, 15, 10, 30, 0);
const at = (iso: string): number => Date.parse(iso) / 1000;

test('calendar forms read as UTC midnight', () => {
  assert.equal(parseDate('2024-01-31', NOW), at('2024-01-31T00:00:00Z'));
  assert.equal(parseDate('01/31/2024', NOW), at('2024-01-31T00:00:00Z'));
  assert.equal(parseDate('2019.11.1', NOW), at('2019-11-01T00:00:00Z'));
  assert.equal(parseDate('november 2023', NOW), at('2023-11-01T00:00:00Z'));
  assert.equal(parseDate('November 1 2019', NOW), at('2019-11-01T00:00:00Z'));
  assert.equal(parseDate('nov 1, 2019', NOW), at('2019-11-01T00:00:00Z'));
  assert.equal(parseDate('1 November 2019', NOW), at('2019-11-01T00:00:00Z'));
});

test('RFC 3339 with and without a zone', () => {
  assert.equal(parseDate('2005-04-07T22:13:13+07:00', NOW), at('2005-04-07T15:13:13Z'));
  assert.equal(parseDate('2005-04-07T22:13:13Z', NOW), at('2005-04-07T22:13:13Z'));
  assert.equal(parseDate('2005-04-07 22:13', NOW), at('2005-04-07T22:13:00Z'));
});

test('relative forms count back from now', () => {
  assert.equal(parseDate('2 weeks ago', NOW), NOW / 1000 - 14 * 86400);
  assert.equal(parseDate('5 days ago', NOW), NOW / 1000 - 5 * 86400);
  assert.equal(parseDate('1 month ago', NOW), at('2024-02-15T10:30:00Z'));
  assert.equal(parseDate('a year ago', NOW), at('2023-03-15T10:30:00Z'));
  assert.equal(parseDate('yesterday', NOW), at('2024-03-14T00:00:00Z'));
  assert.equal(parseDate('3pm', NOW), at('2024-03-15T15:00:00Z'));
  assert.equal(parseDate('1700000000', NOW), 1_700_000_000);
});

test('anything else is INVALID_ARGUMENT naming the input', () => {
  for (const bad of ['', 'soon', '2024-02-30', '13/01/2024', 'smarch 2020', '25pm']) {
    assert.throws(() => parseDate(bad, NOW), (err) => isQuarryError(err, 'INVALID_ARGUMENT') && err.message.includes(`"${bad}"`), bad);
  }
});
