/**
 * ES module re-exports through namespaces, as zod 4 writes them: a barrel of `export * from`, a
 * namespace re-export (`export * as util from`), a namespace import (`import * as core`) used as
 * `core.x` and `core.util.x`, a namespace re-export imported by name (`import { util }`), and a
 * renamed re-export (`export { _lt as lt } from`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/colinhacks/zod';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/core/schemas.ts', content: [
    'export interface ZodType { kind: string }', // 1
    'export const ZodString = { kind: "string" };', // 2
  ].join('\n') },
  { repo: REPO, path: 'src/core/util.ts', content: [
    'export type MaybeAsync<T> = T | Promise<T>;', // 1
    'export function defineLazy(o: object, key: string): void {}', // 2
  ].join('\n') },
  { repo: REPO, path: 'src/core/api.ts', content: 'export function _lt(value: number) { return value; }\n' },
  { repo: REPO, path: 'src/core/index.ts', content: [
    'export * from "./schemas.js";',
    'export * from "./api.js";',
    'export * as util from "./util.js";',
  ].join('\n') },
  { repo: REPO, path: 'src/classic/checks.ts', content: [
    'export {',
    '  _lt as lt,', // 2
    '} from "../core/index.js";',
  ].join('\n') },
  { repo: REPO, path: 'src/classic/schemas.ts', content: [
    'import * as core from "../core/index.js";', // 1
    'import { util } from "../core/index.js";', // 2
    'import * as checks from "./checks.js";', // 3
    'import { ZodString } from "../core/index.js";', // 4
    'export function string(): core.ZodType {', // 5
    '  util.defineLazy(core.ZodString, "shape");', // 6
    '  const later: core.util.MaybeAsync<number> = 1;', // 7
    '  checks.lt(later);', // 8
    '  return ZodString;', // 9
    '}',
  ].join('\n') },
]);

const FILE = 'src/classic/schemas.ts';
const at = (line: number, column: number) => ({ line, column });

test('a namespace import reaches a barrel\'s export * re-exports', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'ZodType', undefined, at(5, 31)).best, `${REPO} src/core/schemas.ts:1`);
  assert.equal(definitionOf(index, REPO, FILE, 'ZodString', undefined, at(6, 24)).best, `${REPO} src/core/schemas.ts:2`);
});

test('a named import from a barrel follows export * to the definition', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'ZodString', undefined, at(9, 10)).best, `${REPO} src/core/schemas.ts:2`);
});

test('a namespace re-export (export * as util) is a module: util.x and core.util.x reach its file', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'defineLazy', undefined, at(6, 8)).best, `${REPO} src/core/util.ts:2`);
  assert.equal(definitionOf(index, REPO, FILE, 'MaybeAsync', undefined, at(7, 23)).best, `${REPO} src/core/util.ts:1`);
});

test('a renamed re-export leads to the definition it renames, as a renamed import does', () => {
  assert.equal(definitionOf(index, REPO, FILE, 'lt', undefined, at(8, 10)).best, `${REPO} src/core/api.ts:1`);
});

test('references of a definition reached through a barrel include the namespace and named uses', () => {
  const refs = referencesOf(index, REPO, 'src/core/util.ts', 'defineLazy');
  assert.ok(refs.includes(`${REPO} ${FILE}:6`), refs.join(', '));
});
