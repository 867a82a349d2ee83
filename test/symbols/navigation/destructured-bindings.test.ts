/** JavaScript and TypeScript names bound by destructuring (parameters, declarations, loops) are locals where they are bound. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/forms';

const index = createParsedSymbolIndex([
  // Same-named definitions elsewhere, which a missing local binding would fall back to.
  { repo: REPO, path: 'src/util.ts', content: 'export function gen(): void {}\nexport const keyword = 1;\nexport const rest = 2;\nexport const inner = 3;\n' },
  { repo: REPO, path: 'src/check.ts', content: [
    'export function checkNullable({gen, data}: Cxt, cond = 1): void {',
    '  gen.let(data, cond)',
    '}',
    'const error = {',
    '  message({keyword, schema: s = 0, ...rest}) {',
    '    return keyword + s + rest',
    '  },',
    '}',
    'function nested({outer: {inner: [first]}}?: Deep) {',
    '  return inner + first',
    '}',
    '',
  ].join('\n') },
  { repo: REPO, path: 'lib/util.js', content: 'function name() {}\nfunction value() {}\nmodule.exports = { name, value };\n' },
  { repo: REPO, path: 'lib/walk.js', content: [
    'function walk({name, value: v}, [head, ...tail]) {',
    '  for (const {name: n, value} of tail) use(n, value);',
    '  return name + v + head;',
    '}',
    'const pick = item => item.name;',
    '',
  ].join('\n') },
]);

const at = (path: string, name: string, line: number): string | null => definitionOf(index, REPO, path, name, everyone, { line }).best;

test('TypeScript destructured parameters, with defaults, renames and rest, bind in their function', () => {
  assert.equal(at('src/check.ts', 'gen', 2), `${REPO} src/check.ts:1`);
  assert.equal(at('src/check.ts', 'keyword', 6), `${REPO} src/check.ts:5`);
  assert.equal(at('src/check.ts', 's', 6), `${REPO} src/check.ts:5`);
  assert.equal(at('src/check.ts', 'rest', 6), `${REPO} src/check.ts:5`);
});

test('a nested pattern binds its innermost names, not the keys it matches', () => {
  assert.equal(at('src/check.ts', 'first', 10), `${REPO} src/check.ts:9`);
  // `inner` is a key there, binding nothing: the use is the file-level one of src/util.ts.
  assert.notEqual(at('src/check.ts', 'inner', 10), `${REPO} src/check.ts:9`);
});

test('JavaScript destructured parameters, loop bindings and a bare arrow parameter bind locally', () => {
  assert.equal(at('lib/walk.js', 'name', 3), `${REPO} lib/walk.js:1`);
  assert.equal(at('lib/walk.js', 'v', 3), `${REPO} lib/walk.js:1`);
  assert.equal(at('lib/walk.js', 'head', 3), `${REPO} lib/walk.js:1`);
  assert.equal(at('lib/walk.js', 'value', 2), `${REPO} lib/walk.js:2`);
  assert.equal(at('lib/walk.js', 'item', 5), `${REPO} lib/walk.js:5`);
});
