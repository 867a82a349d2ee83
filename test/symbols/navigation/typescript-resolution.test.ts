/** Resolution over hand-written TypeScript symbol tables: shadowing, imports, renames, packages, other repositories. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFakeSymbolIndex, def, imp, ref, symbols } from '../fake-symbol-index.js';
import { definitionOf, referencesOf } from './nav-helpers.js';

const APP = 'github.com/acme/app';
const WEB = 'github.com/acme/web';
const SECRET = 'github.com/acme/secret';
/** Sorts before the importing repositories, yet uses `helper` without importing it. */
const GUESS = 'github.com/acme/aaa';
const canRead = (repo: string): boolean => repo !== SECRET;

const index = createFakeSymbolIndex([
  { repo: APP, path: 'src/util.ts', symbols: symbols('typescript', [
    def('helper', 'function', 1, { exported: true, end: 3 }),
    def('internal', 'function', 5, { end: 7 }),
    def('format', 'function', 9, { exported: true, end: 11 }),
    def('Router', 'class', 13, { exported: true, end: 20 }),
    def('route', 'method', 14, { parent: 3, end: 16 }),
    def('helper', 'method', 17, { parent: 3, end: 19 }),
  ], [ref('internal', 2, 0), ref('helper', 15, 4, 'this')]) },
  { repo: APP, path: 'src/main.ts', symbols: symbols('typescript', [
    def('run', 'function', 4, { end: 8 }),
    def('helper', 'variable', 5, { parent: 0 }),
    def('other', 'function', 10, { end: 14 }),
  ], [ref('format', 2, -1, undefined, 13), ref('helper', 6, 0), ref('helper', 11, 2), ref('fmt', 12, 2), ref('route', 13, 2, 'router')], [
    imp('helper', 'helper', './util', 1),
    imp('fmt', 'format', './util.js', 2),
  ]) },
  { repo: APP, path: 'src/other.ts', symbols: symbols('typescript', [def('helper', 'function', 1, { end: 3 })], [ref('helper', 5)]) },
  { repo: APP, path: 'src/lib/index.ts', symbols: symbols('typescript', [def('make', 'function', 1, { exported: true })]) },
  { repo: APP, path: 'src/use-lib.ts', symbols: symbols('typescript', [], [ref('make', 3)], [imp('make', 'make', './lib', 1)]) },
  { repo: WEB, path: 'src/page.ts', symbols: symbols('typescript', [], [ref('helper', 3), ref('path', 4, -1, 'node')], [
    imp('helper', 'helper', '@acme/app/src/util', 1),
    imp('join', 'join', 'path', 2),
  ]) },
  { repo: WEB, path: 'src/no-import.ts', symbols: symbols('typescript', [], [ref('format', 2)]) },
  { repo: GUESS, path: 'guess.ts', symbols: symbols('typescript', [], [ref('helper', 2)]) },
  { repo: SECRET, path: 'x.ts', symbols: symbols('typescript', [], [ref('helper', 2)], [imp('helper', 'helper', '@acme/app/src/util', 1)]) },
]);

test('a local declaration shadows the import of the same name; outside it the import wins', () => {
  assert.equal(definitionOf(index, APP, 'src/main.ts', 'helper').best, `${APP} src/main.ts:5`);
  assert.equal(definitionOf(index, APP, 'src/util.ts', 'helper').best, `${APP} src/util.ts:1`);
  assert.equal(definitionOf(index, APP, 'src/other.ts', 'helper').best, `${APP} src/other.ts:1`);
});

test('a renamed import resolves to the imported name; a .js specifier finds the .ts file; a directory its index', () => {
  assert.deepEqual(definitionOf(index, APP, 'src/main.ts', 'fmt'), { best: `${APP} src/util.ts:9`, also: [] });
  assert.equal(definitionOf(index, APP, 'src/use-lib.ts', 'make').best, `${APP} src/lib/index.ts:1`);
});

test('methods: this.helper is the class member, not the module function; Router.route and the bare name work', () => {
  const inClass = createFakeSymbolIndex([{ repo: APP, path: 'a.ts', symbols: symbols('typescript', [
    def('helper', 'function', 1), def('C', 'class', 3, { end: 9 }), def('helper', 'method', 4, { parent: 1, end: 5 }), def('go', 'method', 6, { parent: 1, end: 8 }),
  ], [ref('helper', 7, 3, 'this'), ref('helper', 8, 3)]) }]);
  assert.equal(definitionOf(inClass, APP, 'a.ts', 'this.helper').best, `${APP} a.ts:4`);
  assert.equal(definitionOf(index, APP, 'src/main.ts', 'route').best, `${APP} src/util.ts:14`);
  assert.equal(definitionOf(index, APP, 'src/main.ts', 'Router.route').best, `${APP} src/util.ts:14`);
});

test('a package import from another repository resolves there; an unreadable repository is never consulted', () => {
  assert.equal(definitionOf(index, WEB, 'src/page.ts', 'helper', canRead).best, `${APP} src/util.ts:1`);
  assert.equal(definitionOf(index, WEB, 'src/no-import.ts', 'format', canRead).best, `${APP} src/util.ts:9`);
  assert.equal(definitionOf(index, WEB, 'src/page.ts', 'join').best, null, 'an external package binds the name: no guess');
  assert.equal(definitionOf(index, WEB, 'src/page.ts', 'nothing').best, null);
});

test('references: exactly the uses that resolve to the definition, same file first, then repository, then others', () => {
  assert.deepEqual(referencesOf(index, APP, 'src/util.ts', 'helper', canRead), [
    `${APP} src/main.ts:11`,
    `${WEB} src/page.ts:3`,
    `${GUESS} guess.ts:2`,
  ], 'other repositories: importers first');
  assert.deepEqual(referencesOf(index, APP, 'src/main.ts', 'helper', canRead), [`${APP} src/main.ts:6`]);
  assert.deepEqual(referencesOf(index, APP, 'src/other.ts', 'helper', canRead), [`${APP} src/other.ts:5`]);
  assert.deepEqual(referencesOf(index, APP, 'src/util.ts', 'format', canRead), [`${APP} src/main.ts:2`, `${APP} src/main.ts:12`, `${WEB} src/no-import.ts:2`], 'main.ts imports it as fmt');
  assert.deepEqual(referencesOf(index, APP, 'src/util.ts', 'Router.route', canRead), [`${APP} src/main.ts:13`]);
  assert.deepEqual(referencesOf(index, APP, 'src/util.ts', 'helper'), [`${APP} src/main.ts:11`, `${SECRET} x.ts:2`, `${WEB} src/page.ts:3`, `${GUESS} guess.ts:2`]);
});
