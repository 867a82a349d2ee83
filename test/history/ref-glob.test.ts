/** Ref globs: git's wildcard rules, in time linear in name times glob, whatever the glob. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileRefGlob } from '../../src/history/ref-glob.js';

test('globs match whole ref names with *, ? and bracket sets', () => {
  const cases: [string, string, boolean][] = [
    ['*refs/heads/*', 'refs/heads/main', true], ['refs/heads/*', 'refs/tags/v1', false],
    ['refs/tags/v1.?', 'refs/tags/v1.2', true], ['refs/tags/v1.?', 'refs/tags/v1.22', false],
    ['refs/heads/[ab]*', 'refs/heads/beta', true], ['refs/heads/[!ab]*', 'refs/heads/beta', false], ['refs/heads/[^ab]*', 'refs/heads/main', true],
    ['refs/heads/[a-c]x', 'refs/heads/bx', true], ['refs/heads/[', 'refs/heads/[', true], ['refs/heads/a.b', 'refs/heads/aXb', false],
    ['a*b*c', 'aXbYc', true], ['a*b*c', 'aXbY', false], ['*', '', true], ['', '', true],
  ];
  for (const [glob, name, expected] of cases) assert.equal(compileRefGlob(glob)(name), expected, `${glob} on ${name}`);
});

test('globs with many stars answer at once (as a regex, a*a*a… backtracks exponentially)', () => {
  const glob = `a${'*a'.repeat(200)}x`;
  const started = performance.now();
  for (let i = 0; i < 100; i++) assert.equal(compileRefGlob(glob)('a'.repeat(300)), false);
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
});
