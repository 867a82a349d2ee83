/** find_references counts the line of a CommonJS binding (`const x = require('./m')`) that names the definition, as it counts an ES import. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'git.example.org/semver';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'internal/parse-options.js', content: 'const parseOptions = options => options || {}\nmodule.exports = parseOptions\n' },
  { repo: REPO, path: 'classes/range.js', content: [
    'class Range {',
    '  constructor (range, options) {',
    '    options = parseOptions(options)',
    '  }',
    '}',
    'module.exports = Range',
    "const parseOptions = require('../internal/parse-options')",
    '',
  ].join('\n') },
  { repo: REPO, path: 'classes/other.js', content: "const { parseOptions } = require('./elsewhere')\nparseOptions(1)\n" },
  { repo: REPO, path: 'classes/elsewhere.js', content: 'exports.parseOptions = function (o) { return o }\n' },
]);

test('the require binding of the definition is a reference beside the calls it makes possible', () => {
  const found = referencesOf(index, REPO, 'internal/parse-options.js', 'parseOptions');
  assert.ok(found.includes(`${REPO} classes/range.js:7`), found.join('\n'));
  assert.ok(found.includes(`${REPO} classes/range.js:3`), found.join('\n'));
  assert.ok(!found.some((f) => f.startsWith(`${REPO} classes/other.js`)), found.join('\n'));
});
