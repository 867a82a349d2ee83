/**
 * go_to_definition without a line: the file's own file-level definition, else the binding most of
 * the file's uses of the name resolve to (an import used throughout beats a local of one function).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/shop';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'handlers.js', content: [
    'function setup(ctx) {',
    '  return ctx;',
    '}',
    'function handle(req, ctx) {',
    '  ctx.start();',
    '  ctx.body = req.body;',
    '  ctx.status = 200;',
    '  return ctx;',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'shapes.py', content: [
    'import typing as t',
    'Point = t.Tuple[float, float]',
    'def area(shape: t.Any) -> t.Optional[float]:',
    '    return None',
    '',
    'def scale(points):',
    '    for t in points:',
    '        print(t)',
  ].join('\n') },
  { repo: REPO, path: 'stack.py', content: [
    'def push(item):',
    '    return item',
    '',
    'class Stack:',
    '    def push(self, item):',
    '        self.push(item)',
    '        self.push(item)',
  ].join('\n') },
]);

test('the parameter most uses in the file mean, not the first same-named one', () => {
  assert.equal(definitionOf(index, REPO, 'handlers.js', 'ctx').best, `${REPO} handlers.js:4`);
  assert.equal(definitionOf(index, REPO, 'handlers.js', 'ctx', everyone, { line: 2 }).best, `${REPO} handlers.js:1`, 'a line still picks its own binding');
});

test('an import most uses mean is defined outside, though one function binds the name locally', () => {
  assert.equal(definitionOf(index, REPO, 'shapes.py', 't').best, null);
  assert.equal(definitionOf(index, REPO, 'shapes.py', 't', everyone, { line: 8 }).best, `${REPO} shapes.py:7`);
});

test('a file-level function the file defines is what its bare name means, whatever the member uses', () => {
  assert.equal(definitionOf(index, REPO, 'stack.py', 'push').best, `${REPO} stack.py:1`);
});
