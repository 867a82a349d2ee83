/**
 * `x.name` with x a parameter of unknown type (koa's `ctx`): the file's own same-named member is no
 * surer than another file's; a receiver named after its type in short (`ctx` for context.js) is a
 * hint; a unique definer is the answer; each such answer says it is a guess.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDefinition, parseSymbolName } from '../../../src/symbols/navigation/definition.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { everyone, siteLabel } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const REPO = 'github.com/koajs/koa';
const APP = 'lib/application.js';

const index = createParsedSymbolIndex([
  { repo: REPO, path: APP, content: [
    'module.exports = class Application {',
    '  handleRequest(ctx, fnMiddleware) {',
    '    const onerror = err => ctx.onerror(err);', // 3
    '    if (!ctx.writable) return;', // 4
    '    this.onerror(null);', // 5
    '  }',
    '  onerror(err) {', // 7
    '    return err;',
    '  }',
    '};',
  ].join('\n') },
  { repo: REPO, path: 'lib/context.js', content: 'module.exports = {\n  onerror(err) {\n    return err;\n  },\n};\n' },
  { repo: REPO, path: 'lib/response.js', content: 'module.exports = {\n  get writable() {\n    return true;\n  },\n};\n' },
]);

function answerAt(symbol: string, line: number, column: number): { best: string; guessedThrough: string | undefined } {
  const origin = { repo: REPO, commit: FAKE_COMMIT, path: APP, symbols: index.fileSymbols(REPO, APP)! };
  const answer = findDefinition(new Resolver(new SymbolLookup(index, everyone)), origin, parseSymbolName(symbol)!, { line, column });
  assert.ok(answer !== null, `${symbol} at ${line}:${column} found nothing`);
  return { best: siteLabel(answer.best.site), guessedThrough: answer.guessedThrough };
}

test('ctx.onerror: the context\'s member, not the enclosing class\'s own onerror, and said to be a guess', () => {
  assert.deepEqual(answerAt('onerror', 3, 32), { best: `${REPO} lib/context.js:2`, guessedThrough: 'ctx' });
});

test('a member only one file defines is the answer through an untyped receiver, still a guess', () => {
  assert.deepEqual(answerAt('writable', 4, 14), { best: `${REPO} lib/response.js:2`, guessedThrough: 'ctx' });
});

test('this.onerror is the class\'s own member, no guess', () => {
  assert.deepEqual(answerAt('onerror', 5, 10), { best: `${REPO} ${APP}:7`, guessedThrough: undefined });
});
