import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { repoNameProblem, validateRepoName } from '../../src/repos/names.js';

describe('repository names', () => {
  it('accepts host/org/repo shapes and plain names', () => {
    for (const name of ['github.com/org/repo', 'gitlab.example.com/a/b/c', 'repo', 'A-b_c.d/E.f', 'x'.repeat(200), '.hidden/x']) {
      assert.equal(repoNameProblem(name), null, name);
    }
  });

  it('rejects empty, long, slashed, dotted and odd-character names', () => {
    const bad = ['', 'x'.repeat(201), '/a', 'a/', 'a//b', 'a/../b', '..', 'a..b', 'a/./b', '.', 'a b', 'a\\b', 'a:b', 'é/x', 'a\nb'];
    for (const name of bad) assert.notEqual(repoNameProblem(name), null, JSON.stringify(name));
  });

  it('throws a one-line USAGE error naming the problem', () => {
    assert.throws(
      () => validateRepoName('bad\nname'),
      (err: unknown) => isQuarryError(err, 'USAGE') && !err.message.includes('\n') && err.message.includes('may contain only'),
    );
  });
});
