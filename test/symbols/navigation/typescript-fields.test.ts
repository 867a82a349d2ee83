/** TypeScript fields declared apart from a field declaration: constructor parameter properties and `this.x = …` in a method. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/pack';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/core.ts', content: 'export default class Core {\n  compile(schema: unknown): unknown { return schema }\n}\n' },
  { repo: REPO, path: 'src/other.ts', content: 'export const ajv = 1;\nexport const cache = 2;\nexport function compile(): void {}\n' },
  { repo: REPO, path: 'src/pack.ts', content: [
    'import Core from "./core"',
    'export default class Pack {',
    '  constructor(readonly ajv: Core, private limit?: number) {',
    '    this.cache = new Map()',
    '    ajv.compile(limit)',
    '  }',
    '  compile(schema: unknown): unknown {',
    '    this.cache.clear()',
    '    return this.ajv.compile(schema)',
    '  }',
    '}',
    '',
  ].join('\n') },
]);

const at = (name: string, line: number, column?: number): string | null =>
  definitionOf(index, REPO, 'src/pack.ts', name, everyone, column === undefined ? { line } : { line, column }).best;

test('a parameter property is a field of its class, typed as declared', () => {
  assert.equal(at('ajv', 9), `${REPO} src/pack.ts:3`);
  assert.equal(at('compile', 9, 21), `${REPO} src/core.ts:2`);
});

test('a parameter property is still a parameter inside its constructor', () => {
  assert.equal(at('ajv', 5), `${REPO} src/pack.ts:3`);
  assert.equal(at('limit', 5), `${REPO} src/pack.ts:3`);
});

test('a field a method assigns without declaring it is a field of the class', () => {
  assert.equal(at('cache', 8), `${REPO} src/pack.ts:4`);
});
