/**
 * Navigation from a usage position, CommonJS bindings followed to their module, `this.x` fields of
 * a class, and built bundles ranked below the source they copy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDefinition } from '../../../src/symbols/navigation/definition.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/app';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'shadow.py', content: [
    'def outer(path):',
    '    def inner(path):',
    '        return path',
    '    return inner(path) + path',
    '',
    'def other(path):',
    '    return path',
  ].join('\n') },
  { repo: REPO, path: 'lib/utils.js', content: 'exports.compileETag = function (value) { return value; };\n' },
  { repo: REPO, path: 'lib/view.js', content: 'function View(name) { this.name = name; }\nmodule.exports = View;\n' },
  { repo: REPO, path: 'lib/app.js', content: [
    "const compileETag = require('./utils').compileETag;",
    "const { compileETag: etag } = require('./utils');",
    "const View = require('./view');",
    "const only = require('only');",
    'compileETag(1); etag(2); new View("x"); only({});',
  ].join('\n') },
  { repo: REPO, path: 'lib/option.js', content: [
    'class Option {',
    '  constructor(flags) {',
    '    this.negate = flags.includes("no-");',
    '  }',
    '  is() {',
    '    this.negate = !this.negate;',
    '    return this.negate;',
    '  }',
    '}',
    'const literal = { set(v) { this.value = v; }, get() { return this.value; } };',
  ].join('\n') },
  { repo: REPO, path: 'lib/request.js', content: [
    "const { URL } = require('url');",
    'class Request {',
    '  get URL() { return new URL(this.href); }',
    '}',
  ].join('\n') },
  { repo: REPO, path: 'cookies.py', content: [
    'import copy',
    '',
    'class Jar:',
    '    def copy(self):',
    '        return copy.copy(self)',
  ].join('\n') },
  { repo: REPO, path: 'src/map.ts', content: 'export function map<T>(value: T): T { return value; }\n' },
  { repo: REPO, path: 'dist/map.js', content: 'export function map(value) { return value; }\n' },
  { repo: REPO, path: 'src/use.ts', content: 'map(1);\n' },
]);

test('a position resolves the occurrence there: a parameter shadowing an outer one, and a name in another function', () => {
  assert.equal(definitionOf(index, REPO, 'shadow.py', 'path', everyone, { line: 3 }).best, `${REPO} shadow.py:2`);
  assert.equal(definitionOf(index, REPO, 'shadow.py', 'path', everyone, { line: 4, column: 18 }).best, `${REPO} shadow.py:1`);
  assert.equal(definitionOf(index, REPO, 'shadow.py', 'path', everyone, { line: 7 }).best, `${REPO} shadow.py:6`);
});

test('a position the tables hold no occurrence at is looked up from the scope enclosing its line', () => {
  assert.equal(definitionOf(index, REPO, 'shadow.py', 'path', everyone, { line: 4, column: 1 }).best, `${REPO} shadow.py:1`);
});

test('CommonJS bindings lead to what the module defines, not to the require line', () => {
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'compileETag', everyone, { line: 5, column: 1 }).best, `${REPO} lib/utils.js:1`);
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'etag', everyone, { line: 5 }).best, `${REPO} lib/utils.js:1`);
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'View', everyone, { line: 5 }).best, `${REPO} lib/view.js:1`);
});

test('a require of a package no indexed repository holds answers nothing rather than the require line', () => {
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'only', everyone, { line: 5 }).best, null);
});

test('without a position, a require binding still leads to the module, not to its own line', () => {
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'View').best, `${REPO} lib/view.js:1`);
  assert.equal(definitionOf(index, REPO, 'lib/app.js', 'only').best, null);
});

test('without a position, an imported name means the import, not a same-named member of the file', () => {
  assert.equal(definitionOf(index, REPO, 'lib/request.js', 'URL').best, null);
  assert.equal(definitionOf(index, REPO, 'cookies.py', 'copy').best, null);
  assert.equal(definitionOf(index, REPO, 'cookies.py', 'Jar.copy').best, `${REPO} cookies.py:4`);
});

test('this.x assigned in a constructor is the field every method of the class reads', () => {
  assert.equal(definitionOf(index, REPO, 'lib/option.js', 'negate', everyone, { line: 7 }).best, `${REPO} lib/option.js:3`);
  assert.equal(definitionOf(index, REPO, 'lib/option.js', 'negate', everyone, { line: 6, column: 10 }).best, `${REPO} lib/option.js:3`);
});

test('this.x in an object literal declares no field', () => {
  assert.equal(definitionOf(index, REPO, 'lib/option.js', 'value', everyone, { line: 10 }).best, null);
});

test('TypeScript type parameters are definitions, and source outranks its built copy', () => {
  assert.equal(definitionOf(index, REPO, 'src/map.ts', 'T', everyone, { line: 1, column: 29 }).best, `${REPO} src/map.ts:1`);
  assert.equal(definitionOf(index, REPO, 'src/use.ts', 'map').best, `${REPO} src/map.ts:1`);
});

test('without a position, a name bound in several functions of the file lists each binding', () => {
  const origin = { repo: REPO, commit: FAKE_COMMIT, path: 'shadow.py', symbols: index.fileSymbols(REPO, 'shadow.py')! };
  const answer = findDefinition(new Resolver(new SymbolLookup(index, everyone)), origin, { name: 'path' });
  assert.deepEqual(answer?.bindings.map((b) => b.definition.nameRange.startLine + 1), [1, 2, 6]);
  assert.deepEqual(findDefinition(new Resolver(new SymbolLookup(index, everyone)), origin, { name: 'path' }, { line: 3 })?.bindings, []);
});
