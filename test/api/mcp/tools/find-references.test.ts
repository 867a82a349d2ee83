/**
 * find_references over the labelled fixtures: exact sets and order, the symbol each reference is
 * in, shadowing, limit, `after` pages and totals, unreadable repositories.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import { findReferencesTool } from '../../../../src/api/mcp/tools/find-references.js';
import { callTool } from '../tool-context.js';
import { APP, BACKENDS, canRead, numbered, WEB, type NavigationBackend } from './nav-fixture.js';

const refs = (args: Record<string, unknown>, maxAnswerTokens = 8000) => callTool(backend.services, findReferencesTool, args, { canRead, maxAnswerTokens });
let backend: NavigationBackend;
const header = (repo: string, path: string): string => `# ${repo} \u2013 ${path}\n`;
const cursorOf = (text: string): string => /after: "([\w-]+)"/.exec(text)![1]!;

for (const { name, open } of BACKENDS) {
  describe(name, () => {
    before(async () => {
      backend = await open();
    });
    after(async () => {
      await backend.close();
    });

    test('every reference of util.helper, same file then repository then other repositories, each after the symbol it is in; the local helper and the unreadable repository left out', async () => {
      const answer = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper' });
      assert.equal(answer.isError, undefined);
      assert.equal(answer.text, [
        `${header(APP, 'src/util.mts')}(in function internal)\n${numbered(APP, 'src/util.mts', 5, 7)}`,
        `${header(APP, 'src/main.mts')}(at file level)\n${numbered(APP, 'src/main.mts', 1, 2)}(in function other)\n${numbered(APP, 'src/main.mts', 10, 12)}`,
        `${header(WEB, 'src/page.mts')}(at file level)\n${numbered(WEB, 'src/page.mts', 1, 2)}(in function render)\n${numbered(WEB, 'src/page.mts', 4, 6)}`,
        `5 references to helper (defined at ${APP} \u2013 src/util.mts:1).\n`,
      ].join('\n'));
    });

    test('limit shows the first references, and the after cursor the next ones, to the last', async () => {
      const first = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', limit: 2 });
      assert.ok(first.text.startsWith(`${header(APP, 'src/util.mts')}(in function internal)\n${numbered(APP, 'src/util.mts', 5, 7)}\n${header(APP, 'src/main.mts')}(at file level)\n${numbered(APP, 'src/main.mts', 1, 2)}\n`), first.text);
      assert.match(first.text, /5 references to helper \(defined at [^)]+\)\.\nShowing 1-2 of 5\.\n\(more available - call find_references with after: "[\w-]+" to see the next ones\)\n$/);
      const second = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', limit: 2, after: cursorOf(first.text) });
      assert.ok(second.text.startsWith(`${header(APP, 'src/main.mts')}(in function other)\n${numbered(APP, 'src/main.mts', 10, 12)}\n${header(WEB, 'src/page.mts')}(at file level)\n${numbered(WEB, 'src/page.mts', 1, 2)}\n`), second.text);
      assert.match(second.text, /Showing 3-4 of 5\./);
      const last = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', limit: 2, after: cursorOf(second.text) });
      assert.ok(last.text.startsWith(`${header(WEB, 'src/page.mts')}(in function render)\n${numbered(WEB, 'src/page.mts', 4, 6)}\n`), last.text);
      assert.match(last.text, /Showing 5-5 of 5\.\n$/);
    });

    test('a cursor that is not one, or belongs to another symbol, is refused and says what to do', async () => {
      const bad = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', after: 'not-a-cursor' });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /^Invalid after cursor: pass a cursor exactly as a previous find_references answer gave it\./);
      const page = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', limit: 1 });
      const other = await refs({ repo: APP, path: 'src/shadow.mts', symbol: 'helper', after: cursorOf(page.text) });
      assert.equal(other.isError, true);
      assert.match(other.text, /^The after cursor belongs to "helper at github\.com\/acme\/app \u2013 src\/util\.mts:1", not "helper at github\.com\/acme\/app \u2013 src\/shadow\.mts:1"/);
    });

    test('a shadowing local has only its own references', async () => {
      const answer = await refs({ repo: APP, path: 'src/shadow.mts', symbol: 'helper' });
      assert.equal(answer.text, `${header(APP, 'src/shadow.mts')}(in function useShadow)\n${numbered(APP, 'src/shadow.mts', 5, 7)}\n1 reference to helper (defined at ${APP} \u2013 src/shadow.mts:1).\n`);
    });

    test('a small budget shows what fits and says the rest is not shown', async () => {
      const answer = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper' }, 260);
      assert.ok(estimateTokens(answer.text) <= 260);
      assert.match(answer.text, /5 references to helper \(defined at [^)]+\)\.\nShowing 1-[1-4] of 5\./);
      assert.match(answer.text, /the answer budget of 260 tokens is spent/);
    });

    test('no references and unknown symbols', async () => {
      assert.equal((await refs({ repo: APP, path: 'src/main.mts', symbol: 'twice' })).text, `No references to twice (defined at ${APP} \u2013 src/main.mts:19) were found.\n`);
      const unknown = await refs({ repo: APP, path: 'src/main.mts', symbol: 'zzz' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /^Symbol not found/);
    });
  });
}
