/**
 * Members of the language's own globals: `Symbol.iterator` beside a class that assigns a
 * `this.iterator` field and has `[Symbol.iterator]()` members (@harperfast/extended-iterable), and a
 * module exporting a constant named `iterator` (rxjs), is JavaScript's, outside the repository;
 * `Symbol.observable`, which the repository declares onto SymbolConstructor, is that declaration.
 * A C use of a name never lands on a same-named JavaScript definition.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinOwner } from '../../../src/symbols/navigation/definition.js';
import { definitionOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/harperfast/extended-iterable';
const RX = 'github.com/reactivex/rxjs';
const at = (line: number, column: number) => ({ line, column });

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'index.js', content: [
    'export class ExtendedIterable {',
    '  [Symbol.asyncIterator](options) {', // 2
    '    return (this.iterator = this.iterate(options));', // 3
    '  }',
    '  [Symbol.iterator](options) {', // 5
    '    return (this.iterator = this.iterate(options));',
    '  }',
    '  concat(other) {',
    '    return other[Symbol.iterator]();', // 9
    '  }',
    '}',
  ].join('\n') },
  { repo: RX, path: 'src/internal/types.ts', content: [
    'declare global {',
    '  interface SymbolConstructor {',
    '    readonly observable: symbol;', // 3
    '  }',
    '}',
  ].join('\n') },
  { repo: RX, path: 'src/internal/symbol/iterator.ts', content: [
    'export function getSymbolIterator(): symbol {',
    '  return Symbol.iterator;', // 2
    '}',
    'export const iterator = getSymbolIterator();',
  ].join('\n') },
  { repo: RX, path: 'src/internal/symbol/holder.ts', content: 'export class Holder {\n  observable = 1;\n}\n' },
  { repo: RX, path: 'src/internal/symbol/observable.ts', content: 'export const observable = Symbol.observable || "@@observable";\n' },
  { repo: RX, path: 'src/jq/jv.c', content: 'void f(void) {\n  assert(1);\n}\n' },
  { repo: RX, path: 'src/internal/util/assert.js', content: 'export function assert(x) { return x; }\n' },
]);

test('Symbol.iterator is the language\'s, not a this.iterator field of the class', () => {
  assert.equal(definitionOf(index, REPO, 'index.js', 'iterator', undefined, at(9, 25)).best, null);
});

test('Symbol.iterator is not a same-named constant the file exports', () => {
  assert.equal(definitionOf(index, RX, 'src/internal/symbol/iterator.ts', 'iterator', undefined, at(2, 17)).best, null);
});

test('a member the repository declares onto a global is that declaration, not a same-named field nearby', () => {
  assert.equal(definitionOf(index, RX, 'src/internal/symbol/observable.ts', 'observable', undefined, at(1, 34)).best, `${RX} src/internal/types.ts:3`);
});

test('a C use does not reach a JavaScript definition of the same name', () => {
  assert.equal(definitionOf(index, RX, 'src/jq/jv.c', 'assert', undefined, at(2, 3)).best, null);
});

test('the answer names the global the member belongs to, unless the file binds that name itself', () => {
  const symbols = index.fileSymbols(REPO, 'index.js')!;
  assert.equal(builtinOwner(symbols, { name: 'iterator' }, at(9, 25)), 'Symbol');
  assert.equal(builtinOwner(symbols, { name: 'iterate' }, at(3, 34)), null);
  const shadowed = createParsedSymbolIndex([{ repo: REPO, path: 'own.js', content: 'const Symbol = { iterator: 1 };\nexport const x = Symbol.iterator;\n' }]);
  assert.equal(builtinOwner(shadowed.fileSymbols(REPO, 'own.js')!, { name: 'iterator' }, at(2, 25)), null);
});
