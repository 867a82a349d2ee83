/**
 * `x.name` with x of unknown type: a reference when the indexed code defines exactly one member of
 * that name and x is a plain variable; a name match otherwise (two members of that name, a receiver
 * that is itself a member chain).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { findReferences } from '../../../src/symbols/navigation/references.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/acme/server';
const RESPONSE = 'lib/response.js';
const REQUEST = 'lib/request.js';
const TEST = 'test/vary.test.js';

const index = createParsedSymbolIndex([
  { repo: REPO, path: RESPONSE, content: [
    "const vary = require('vary');",
    'module.exports = {',
    '  vary(field) { vary(this.res, field); },',
    '  accepts(types) { return types; },',
    '};',
  ].join('\n') },
  { repo: REPO, path: REQUEST, content: [
    'module.exports = {',
    '  accepts(types) { return [types]; },',
    '};',
  ].join('\n') },
  { repo: REPO, path: TEST, content: [
    "test('vary', (ctx) => {",
    "  ctx.vary('Accept');",
    '  assert.equal(ctx.response.header.vary, "Accept");',
    "  ctx.accepts('json');",
    '});',
  ].join('\n') },
]);

/** `path:line resolved|name-match` for each use of the member `name` defined in `path`. */
function usesOf(path: string, name: string): string[] {
  const symbols = index.fileSymbols(REPO, path)!;
  const at = symbols.definitions.findIndex((d) => d.name === name && d.kind === 'method');
  assert.ok(at >= 0, `no method ${name} in ${path}`);
  const file = { repo: REPO, commit: FAKE_COMMIT, path, symbols };
  return findReferences(new Resolver(new SymbolLookup(index, everyone)), { file, index: at, definition: symbols.definitions[at]! }).sites
    .map((r) => `${r.file.path}:${r.range.startLine + 1} ${r.resolved ? 'resolved' : 'name-match'}`);
}

test('a plain variable\'s member is resolved when only one member of that name is defined', () => {
  assert.deepEqual(usesOf(RESPONSE, 'vary'), [`${TEST}:2 resolved`, `${TEST}:3 name-match`]);
});

test('two members of one name leave the use a name match of each', () => {
  assert.deepEqual(usesOf(RESPONSE, 'accepts'), [`${TEST}:4 name-match`]);
  assert.deepEqual(usesOf(REQUEST, 'accepts'), [`${TEST}:4 name-match`]);
});
