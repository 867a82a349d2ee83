/** An assignment to an accessor property (`obj.x = …`) goes to its setter; a read goes to its getter. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFileSymbols, encodeFileSymbols } from '../../../src/symbols/codec.js';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex, parseSymbols } from './parsed-index.js';

const REPO = 'git.example.org/web';

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'lib/request.js', content: [
    'module.exports = {',
    '  get querystring() {',
    '    return this.req.query',
    '  },',
    '  set querystring(str) {',
    '    this.req.query = str',
    '  },',
    '  set search(str) {',
    '    this.querystring = str',
    '  },',
    '  get search() {',
    '    return this.querystring',
    '  },',
    '}',
    '',
  ].join('\n') },
  { repo: REPO, path: 'lib/stream.js', content: [
    'class Stream {',
    '  constructor(type) {',
    '    this.binaryType = type',
    '  }',
    '  get binaryType() { return this._type }',
    '  set binaryType(type) { this._type = type }',
    '}',
    'function use(s) { s.binaryType = "x" }',
    '',
  ].join('\n') },
  { repo: REPO, path: 'app/props.py', content: [
    'class Props:',
    '    def __init__(self):',
    '        self._color = None',
    '',
    '    @property',
    '    def color(self):',
    '        return self._color',
    '',
    '    @color.setter',
    '    def color(self, value):',
    '        self._color = value',
    '',
    '    def reset(self):',
    '        self.color = None',
    '        return self.color',
    '',
  ].join('\n') },
]);

const at = (path: string, name: string, line: number): string | null => definitionOf(index, REPO, path, name, everyone, { line }).best;

test('an object literal accessor: assigned through this, the setter; read, the getter', () => {
  assert.equal(at('lib/request.js', 'querystring', 9), `${REPO} lib/request.js:5`);
  assert.equal(at('lib/request.js', 'querystring', 12), `${REPO} lib/request.js:2`);
});

test('a class accessor assigned in the constructor is its setter, not a field declared there', () => {
  assert.equal(at('lib/stream.js', 'binaryType', 3), `${REPO} lib/stream.js:6`);
});

test('a Python property assigned through self is its setter, read it is the property', () => {
  assert.equal(at('app/props.py', 'color', 14), `${REPO} app/props.py:10`);
  assert.equal(at('app/props.py', 'color', 15), `${REPO} app/props.py:6`);
});

test('the symbol encoding keeps which references are assigned', () => {
  const symbols = parseSymbols('lib/request.js', 'o.a = 1; o.a; o.b += 1;\n')!;
  const assigned = decodeFileSymbols(encodeFileSymbols(symbols)).references.filter((r) => r.assigned === true).map((r) => `${r.name}:${r.range.startColumn}`);
  assert.deepEqual(assigned, ['a:2']);
});
