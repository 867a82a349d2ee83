/** A member a declaration file's class declares (`.d.ts` typings) leads to the implementing class's member. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/cli';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'lib/command.js', content: [
    'class Command {',
    '  constructor() {',
    '    this.commands = []',
    '  }',
    '  addArgument(arg) {',
    '    return this',
    '  }',
    '}',
    'exports.Command = Command',
    '',
  ].join('\n') },
  { repo: REPO, path: 'typings/index.d.ts', content: [
    'export class Command {',
    '  commands: readonly Command[];',
    '  addArgument(arg: string): this;',
    '  argument(name: string): this;',
    '}',
    'export function run(c: Command): void;',
    '',
  ].join('\n') },
]);

test('a declared method and a declared property lead to the implementing class members', () => {
  assert.equal(definitionOf(index, REPO, 'typings/index.d.ts', 'addArgument', everyone, { line: 3 }).best, `${REPO} lib/command.js:5`);
  assert.equal(definitionOf(index, REPO, 'typings/index.d.ts', 'commands', everyone, { line: 2 }).best, `${REPO} lib/command.js:3`);
});

test('a declared member the implementation lacks stays the declaration', () => {
  assert.equal(definitionOf(index, REPO, 'typings/index.d.ts', 'argument', everyone, { line: 4 }).best, `${REPO} typings/index.d.ts:4`);
});
