import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveDataDir } from '../../src/cli/data-dir.js';
import { isQuarryError } from '../../src/errors.js';

describe('resolveDataDir', () => {
  it('prefers --data, then QUARRY_DATA, then ./data, resolved against the working directory', () => {
    assert.equal(resolveDataDir('flag', { QUARRY_DATA: '/env' }, '/cwd'), '/cwd/flag');
    assert.equal(resolveDataDir('/abs', { QUARRY_DATA: '/env' }, '/cwd'), '/abs');
    assert.equal(resolveDataDir(undefined, { QUARRY_DATA: 'env' }, '/cwd'), '/cwd/env');
    assert.equal(resolveDataDir(undefined, {}, '/cwd'), '/cwd/data');
    assert.equal(resolveDataDir(undefined, { QUARRY_DATA: '' }, '/cwd'), '/cwd/data');
  });

  it('refuses an empty --data', () => {
    assert.throws(() => resolveDataDir('', {}, '/cwd'), (err: unknown) => isQuarryError(err, 'USAGE'));
  });
});
