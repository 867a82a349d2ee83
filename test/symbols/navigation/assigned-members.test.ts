/**
 * JavaScript members defined by assignment, on excerpts of real code: methods assigned to a
 * constructor's prototype (markdown-it 14.1.0, lib/renderer.mjs and lib/index.mjs) reached through
 * `this`, and constants defined with Object.defineProperty next to a class's getters (ws 8.13.0,
 * lib/websocket.js).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/markdown-it/markdown-it';
const WS = 'github.com/websockets/ws';

const RENDERER = [
  'function Renderer () {', // 1
  '  this.rules = assign({}, default_rules)',
  '}',
  '',
  'Renderer.prototype.renderAttrs = function renderAttrs (token) {', // 5
  '  let i, l, result',
  "  if (!token.attrs) { return '' }",
  "  result = ''",
  '  return result',
  '}',
  '',
  'Renderer.prototype.renderToken = function renderToken (tokens, idx, options) {', // 12
  "  let result = ''",
  '  const token = tokens[idx]',
  '  result += this.renderAttrs(token)', // 15
  '  return result',
  '}',
  '',
  'Renderer.prototype.render = function (tokens, options, env) {', // 19
  "  let result = ''",
  '  for (let i = 0, len = tokens.length; i < len; i++) {',
  "    if (tokens[i].type === 'inline') {",
  '      result += this.renderInline(tokens[i].children, options, env)', // 23
  '    } else {',
  '      result += this.renderToken(tokens, i, options, env)', // 25
  '    }',
  '  }',
  '  return result',
  '}',
  '',
  'Renderer.prototype.renderInline = function (tokens, options, env) {', // 31
  "  return ''",
  '}',
  '',
  'export default Renderer',
].join('\n');

const MARKDOWN_IT = [
  'function MarkdownIt (presetName, options) {', // 1
  '  if (!(this instanceof MarkdownIt)) {',
  '    return new MarkdownIt(presetName, options)',
  '  }',
  '  this.configure(presetName)', // 5
  '  if (options) { this.set(options) }', // 6
  '}',
  '',
  'MarkdownIt.prototype.set = function (options) {', // 9
  '  assign(this.options, options)',
  '  return this',
  '}',
  '',
  'MarkdownIt.prototype.configure = function (presets) {', // 14
  '  const self = this',
  '  return this',
  '}',
  '',
  'export default MarkdownIt',
].join('\n');

/** A second type with same-named prototype methods, as markdown-it's Ruler has `at`, `enable`, `disable`. */
const RULER = [
  'function Ruler () {',
  '  this.__rules__ = []',
  '}',
  '',
  'Ruler.prototype.set = function (options) {', // 5
  '  return this',
  '}',
  '',
  'Ruler.prototype.render = function (name) {', // 9
  '  return this.set(name)', // 10
  '}',
  '',
  'export default Ruler',
].join('\n');

const WEBSOCKET = [
  "const readyStates = ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'];", // 1
  'class WebSocket extends EventEmitter {',
  '  constructor(address, protocols, options) {',
  '    super();',
  '    this._readyState = WebSocket.CONNECTING;', // 5
  '  }',
  '',
  '  get readyState() {', // 8
  '    return this._readyState;',
  '  }',
  '',
  '  close(code, data) {',
  '    if (this.readyState === WebSocket.CLOSED) return;', // 13
  '  }',
  '}',
  '',
  "Object.defineProperty(WebSocket, 'CONNECTING', {", // 17
  '  enumerable: true,',
  "  value: readyStates.indexOf('CONNECTING')",
  '});',
  '',
  "Object.defineProperty(WebSocket.prototype, 'CONNECTING', {", // 22
  '  enumerable: true,',
  "  value: readyStates.indexOf('CONNECTING')",
  '});',
  '',
  "Object.defineProperty(WebSocket, 'CLOSED', {", // 27
  '  enumerable: true,',
  "  value: readyStates.indexOf('CLOSED')",
  '});',
  '',
  'module.exports = WebSocket;',
].join('\n');

const files = [
  { repo: REPO, path: 'lib/renderer.mjs', content: RENDERER },
  { repo: REPO, path: 'lib/index.mjs', content: MARKDOWN_IT },
  { repo: REPO, path: 'lib/ruler.mjs', content: RULER },
  { repo: WS, path: 'lib/websocket.js', content: WEBSOCKET },
];
const index = createParsedSymbolIndex(files);

/** The definition of the last occurrence of `symbol` on the 1-based line. */
const at = (repo: string, path: string, symbol: string, line: number): string | null => {
  const text = files.find((f) => f.repo === repo && f.path === path)!.content.split('\n')[line - 1]!;
  return definitionOf(index, repo, path, symbol, everyone, { line, column: text.lastIndexOf(symbol) + 1 }).best;
};

test('`this.m` in a method assigned to a prototype is the method assigned to the same prototype', () => {
  assert.equal(at(REPO, 'lib/renderer.mjs', 'renderAttrs', 15), `${REPO} lib/renderer.mjs:5`);
  assert.equal(at(REPO, 'lib/renderer.mjs', 'renderInline', 23), `${REPO} lib/renderer.mjs:31`);
  assert.equal(at(REPO, 'lib/renderer.mjs', 'renderToken', 25), `${REPO} lib/renderer.mjs:12`);
});

test('`this.m` in the constructor function itself is its prototype method, not a same-named one of another type', () => {
  assert.equal(at(REPO, 'lib/index.mjs', 'configure', 5), `${REPO} lib/index.mjs:14`);
  assert.equal(at(REPO, 'lib/index.mjs', 'set', 6), `${REPO} lib/index.mjs:9`);
  assert.equal(at(REPO, 'lib/ruler.mjs', 'set', 10), `${REPO} lib/ruler.mjs:5`);
});

test('a constant defined with Object.defineProperty on the class, and a getter read through `this`', () => {
  assert.equal(at(WS, 'lib/websocket.js', 'CLOSED', 13), `${WS} lib/websocket.js:27`);
  assert.equal(at(WS, 'lib/websocket.js', 'CONNECTING', 5), `${WS} lib/websocket.js:17`);
  assert.equal(at(WS, 'lib/websocket.js', 'readyState', 13), `${WS} lib/websocket.js:8`);
});
