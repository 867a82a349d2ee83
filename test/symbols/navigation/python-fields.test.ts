/** Python instance attributes: the fields methods assign through `self`, over tables the real parser extracts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/geo';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'geo/point.py', content: [
    'class Point:',
    '    def __init__(self, x):',
    '        self.x = x',
    '    def norm(self):',
    '        self.x = abs(self.x)',
    '        return self.x',
    '',
  ].join('\n') },
  { repo: REPO, path: 'geo/other.py', content: ['class Box:', '    def __init__(self):', '        self.x = 0', ''].join('\n') },
  { repo: REPO, path: 'geo/use.py', content: ['from geo.point import Point', '', 'print(Point(1).x)', ''].join('\n') },
]);

test('self.x in a method is the field the constructor assigns; its parameter x stays the parameter', () => {
  assert.equal(definitionOf(index, REPO, 'geo/point.py', 'self.x').best, `${REPO} geo/point.py:3`);
  assert.equal(definitionOf(index, REPO, 'geo/point.py', 'Point.x').best, `${REPO} geo/point.py:3`);
});

test('references of the field: later assignments and reads in its class, not another class\'s field of that name', () => {
  assert.deepEqual(referencesOf(index, REPO, 'geo/point.py', 'Point.x'), [
    `${REPO} geo/point.py:5`, `${REPO} geo/point.py:5`, `${REPO} geo/point.py:6`,
  ]);
});
