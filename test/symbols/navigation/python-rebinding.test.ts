/**
 * Python locals assigned more than once: a use means the assignment reaching it, a use in an
 * assignment's own right-hand side the binding before it, and an `except` handler's fallback value
 * never stands for the name; at module level the first assignment still defines it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/tasks';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'queue.py', content: [
    'default = 10',
    'default = 20',
    '',
    'def run(jobs, limit):',
    '    jobs = jobs or []',
    '    jobs = [j for j in jobs if j]',
    '    if jobs:',
    '        jobs = jobs[:limit]',
    '    try:',
    '        result = execute(jobs)',
    '    except RuntimeError:',
    '        result = None',
    '    return result, jobs, default',
  ].join('\n') },
]);

const at = (line: number, column?: number): string | null =>
  definitionOf(index, REPO, 'queue.py', line === 13 && column === undefined ? 'result' : 'jobs', everyone, column === undefined ? { line } : { line, column }).best;

test('a use resolves to the nearest assignment before it in the function', () => {
  assert.equal(at(7), `${REPO} queue.py:6`);
  assert.equal(definitionOf(index, REPO, 'queue.py', 'jobs', everyone, { line: 13, column: 20 }).best, `${REPO} queue.py:8`);
});

test("a use on an assignment's right-hand side means the binding before that assignment", () => {
  assert.equal(at(5, 12), `${REPO} queue.py:4`);
  assert.equal(at(6, 24), `${REPO} queue.py:5`);
  assert.equal(at(8, 16), `${REPO} queue.py:6`);
});

test("an except handler's fallback assignment is not what a later use means", () => {
  assert.equal(at(13), `${REPO} queue.py:10`);
});

test('at module level the first assignment defines the name', () => {
  assert.equal(definitionOf(index, REPO, 'queue.py', 'default', everyone, { line: 13, column: 26 }).best, `${REPO} queue.py:1`);
});
