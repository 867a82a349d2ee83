/** Resolution over hand-written Python and Go symbol tables: relative and dotted modules, self, packages, import paths. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFakeSymbolIndex, def, imp, ref, symbols } from '../fake-symbol-index.js';
import { definitionOf, referencesOf } from './nav-helpers.js';

const PY = 'github.com/acme/py';
const py = createFakeSymbolIndex([
  { repo: PY, path: 'pkg/models.py', symbols: symbols('python', [
    def('User', 'class', 1, { exported: true, end: 8 }),
    def('save', 'method', 2, { parent: 0, exported: true, end: 4 }),
    def('touch', 'method', 5, { parent: 0, exported: true, end: 7 }),
    def('save', 'function', 10, { exported: true, end: 11 }),
  ], [ref('save', 6, 2, 'self'), ref('save', 7, 2)]) },
  { repo: PY, path: 'pkg/service.py', symbols: symbols('python', [
    def('run', 'function', 4, { exported: true, end: 9 }),
    def('save', 'variable', 5, { parent: 0 }),
  ], [ref('User', 6, 0), ref('save', 7, 0), ref('save', 8, 0, 'models')], [
    imp('User', 'User', '.models', 1),
    imp('models', 'models', '.', 2),
  ]) },
  { repo: PY, path: 'app/main.py', symbols: symbols('python', [], [ref('save', 3), ref('User', 4)], [imp('save', 'save', 'pkg.models', 1), imp('User', 'User', 'pkg.models', 2)]) },
  { repo: PY, path: 'pkg/__init__.py', symbols: symbols('python', [def('VERSION', 'constant', 1, { exported: true })]) },
  { repo: PY, path: 'app/version.py', symbols: symbols('python', [], [ref('VERSION', 2)], [imp('VERSION', 'VERSION', 'pkg', 1)]) },
]);

test('python: self.save is the method, a bare save the module function, a local save shadows both', () => {
  assert.equal(definitionOf(py, PY, 'pkg/models.py', 'self.save').best, `${PY} pkg/models.py:2`);
  assert.equal(definitionOf(py, PY, 'app/main.py', 'save').best, `${PY} pkg/models.py:10`);
  assert.equal(definitionOf(py, PY, 'pkg/service.py', 'save').best, `${PY} pkg/service.py:5`);
  assert.equal(definitionOf(py, PY, 'pkg/service.py', 'models.save').best, `${PY} pkg/models.py:10`);
  assert.equal(definitionOf(py, PY, 'pkg/service.py', 'User').best, `${PY} pkg/models.py:1`);
  assert.equal(definitionOf(py, PY, 'app/version.py', 'VERSION').best, `${PY} pkg/__init__.py:1`);
});

test('python: references of the module function leave out the method, the local and self calls', () => {
  assert.deepEqual(referencesOf(py, PY, 'app/main.py', 'save'), [`${PY} pkg/models.py:7`, `${PY} app/main.py:3`, `${PY} pkg/service.py:8`]);
  assert.deepEqual(referencesOf(py, PY, 'pkg/models.py', 'User.save'), [`${PY} pkg/models.py:6`]);
});

const LIB = 'github.com/acme/lib';
const APP = 'github.com/acme/app';
const go = createFakeSymbolIndex([
  { repo: LIB, path: 'strs/reverse.go', symbols: symbols('go', [def('Reverse', 'function', 3, { exported: true, end: 5 })]) },
  { repo: LIB, path: 'strs/upper.go', symbols: symbols('go', [def('Upper', 'function', 3, { exported: true, end: 6 })], [ref('Reverse', 4, 0)]) },
  { repo: APP, path: 'util/reverse.go', symbols: symbols('go', [def('Reverse', 'function', 3, { exported: true, end: 5 })]) },
  { repo: APP, path: 'cmd/main.go', symbols: symbols('go', [def('main', 'function', 5, { end: 9 })], [ref('Reverse', 6, 0, 'strs'), ref('Reverse', 7, 0, 'util'), ref('Println', 8, 0, 'fmt')], [
    imp('strs', '*', 'github.com/acme/lib/strs', 2),
    imp('util', '*', 'github.com/acme/app/util', 3),
    imp('fmt', '*', 'fmt', 4),
  ]) },
]);

test('go: a package-qualified call resolves through the import path, across repositories; a package sees its siblings', () => {
  assert.equal(definitionOf(go, APP, 'cmd/main.go', 'strs.Reverse').best, `${LIB} strs/reverse.go:3`);
  assert.equal(definitionOf(go, APP, 'cmd/main.go', 'util.Reverse').best, `${APP} util/reverse.go:3`);
  assert.equal(definitionOf(go, LIB, 'strs/upper.go', 'Reverse').best, `${LIB} strs/reverse.go:3`);
  assert.equal(definitionOf(go, APP, 'cmd/main.go', 'Println').best, null, 'the standard library is not indexed');
});

test('go: references of one Reverse leave out the other', () => {
  assert.deepEqual(referencesOf(go, LIB, 'strs/reverse.go', 'Reverse'), [`${LIB} strs/upper.go:4`, `${APP} cmd/main.go:6`]);
  assert.deepEqual(referencesOf(go, APP, 'util/reverse.go', 'Reverse'), [`${APP} cmd/main.go:7`]);
});

const C = 'github.com/acme/c';
const c = createFakeSymbolIndex([
  { repo: C, path: 'include/list.h', symbols: symbols('c', [def('list_add', 'function', 3, { exported: true })]) },
  { repo: C, path: 'lib/list.c', symbols: symbols('c', [def('list_add', 'function', 4, { exported: true, end: 8 }), def('helper', 'function', 10, { end: 12 })], [ref('helper', 6, 0)], [imp('*', '*', '"list.h"', 1)]) },
  { repo: C, path: 'src/main.c', symbols: symbols('c', [def('main', 'function', 3, { exported: true, end: 6 }), def('helper', 'function', 8, { end: 9 })], [ref('list_add', 4, 0), ref('helper', 5, 0)], [imp('*', '*', '<list.h>', 1)]) },
]);

test('c: a call resolves past the header declaration to the source definition; static functions stay in their file', () => {
  assert.equal(definitionOf(c, C, 'src/main.c', 'list_add').best, `${C} lib/list.c:4`);
  assert.equal(definitionOf(c, C, 'src/main.c', 'helper').best, `${C} src/main.c:8`);
  assert.deepEqual(referencesOf(c, C, 'lib/list.c', 'list_add'), [`${C} src/main.c:4`]);
  assert.deepEqual(referencesOf(c, C, 'lib/list.c', 'helper'), [`${C} lib/list.c:6`]);
});
