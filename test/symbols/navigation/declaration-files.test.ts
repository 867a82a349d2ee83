/**
 * TypeScript declaration files, on excerpts of commander 12.1.0 (typings/index.d.ts and the
 * lib/*.js it describes): a type the typings declare and the JavaScript implements leads to the
 * implementation; one only the typings declare (an interface) stays in the declaration file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/tj/commander.js';

const TYPINGS = [
  'export class Option {', // 1
  '  flags: string;',
  '  description: string;',
  '  constructor(flags: string, description?: string);',
  '}',
  '',
  'export interface OutputConfiguration {', // 7
  '  writeOut?(str: string): void;',
  '  writeErr?(str: string): void;',
  '}',
  '',
  'export class Command {', // 12
  '  addOption(option: Option): this;', // 13
  '  configureOutput(configuration: OutputConfiguration): this;', // 14
  '}',
].join('\n');

const OPTION = [
  'class Option {', // 1
  '  constructor(flags, description) {',
  '    this.flags = flags;',
  "    this.description = description || '';",
  '  }',
  '}',
  '',
  'exports.Option = Option;',
].join('\n');

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'typings/index.d.ts', content: TYPINGS },
  { repo: REPO, path: 'lib/option.js', content: OPTION },
]);

const at = (symbol: string, line: number): string | null => {
  const text = TYPINGS.split('\n')[line - 1]!;
  return definitionOf(index, REPO, 'typings/index.d.ts', symbol, everyone, { line, column: text.lastIndexOf(symbol) + 1 }).best;
};

test('a class the typings declare and lib/ implements: the implementation', () => {
  assert.equal(at('Option', 13), `${REPO} lib/option.js:1`);
  assert.equal(definitionOf(index, REPO, 'typings/index.d.ts', 'Option').best, `${REPO} lib/option.js:1`);
});

test('an interface only the typings declare: the declaration', () => {
  assert.equal(at('OutputConfiguration', 14), `${REPO} typings/index.d.ts:7`);
});

test('from the JavaScript, its own class is the answer, not the typings', () => {
  assert.equal(definitionOf(index, REPO, 'lib/option.js', 'Option').best, `${REPO} lib/option.js:1`);
});
