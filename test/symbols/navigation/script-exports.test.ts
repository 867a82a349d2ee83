/** JavaScript exports made apart from the declaration (`export { x }`, CommonJS) reach other repositories. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const LIB = 'git.example.org/lib';
const APP = 'git.example.org/app';

const index = createParsedSymbolIndex([
  { repo: LIB, path: 'lib/strings.js', content: 'function pad(s) { return s; }\nfunction internal() {}\nmodule.exports = { pad };\n' },
  { repo: LIB, path: 'lib/trim.js', content: 'function trim(s) { return s; }\nexport { trim };\n' },
  { repo: LIB, path: 'lib/upper.js', content: 'exports.upper = function (s) { return s; };\n' },
  { repo: APP, path: 'app.js', content: 'pad("x");\ninternal();\ntrim("y");\nupper("z");\n' },
]);

test('names exported by module.exports, an export clause or exports.f are seen from another repository', () => {
  assert.equal(definitionOf(index, APP, 'app.js', 'pad').best, `${LIB} lib/strings.js:1`);
  assert.equal(definitionOf(index, APP, 'app.js', 'trim').best, `${LIB} lib/trim.js:1`);
  assert.equal(definitionOf(index, APP, 'app.js', 'upper').best, `${LIB} lib/upper.js:1`);
});

test('a function the file does not export stays out of reach of other repositories', () => {
  assert.equal(definitionOf(index, APP, 'app.js', 'internal').best, null);
});
