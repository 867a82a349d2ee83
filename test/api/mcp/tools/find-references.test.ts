/** find_references over the labelled fixtures: exact sets and order, shadowing, limit and totals, unreadable repositories. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import { findReferencesTool } from '../../../../src/api/mcp/tools/find-references.js';
import { callTool } from '../tool-context.js';
import { APP, BACKENDS, canRead, numbered, WEB, type NavigationBackend } from './nav-fixture.js';

const refs = (args: Record<string, unknown>, maxAnswerTokens = 8000) => callTool(backend.services, findReferencesTool, args, { canRead, maxAnswerTokens });
let backend: NavigationBackend;
const header = (repo: string, path: string): string => `# ${repo} \u2013 ${path}\n`;

for (const { name, open } of BACKENDS) {
  describe(name, () => {
    before(async () => {
      backend = await open();
    });
    after(async () => {
      await backend.close();
    });

    test('every reference of util.helper, same file then repository then other repositories; the local helper and the unreadable repository left out', async () => {
      const answer = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper' });
      assert.equal(answer.isError, undefined);
      assert.equal(answer.text, [
        `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 5, 7)}`,
        `${header(APP, 'src/main.mts')}${numbered(APP, 'src/main.mts', 1, 2)}${numbered(APP, 'src/main.mts', 10, 12)}`,
        `${header(WEB, 'src/page.mts')}${numbered(WEB, 'src/page.mts', 1, 2)}${numbered(WEB, 'src/page.mts', 4, 6)}`,
        `Showing 5 of 5 references to helper (defined at ${APP} \u2013 src/util.mts:1).\n`,
      ].join('\n'));
    });

    test('limit shows the first references and says how to see more', async () => {
      const answer = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper', limit: 2 });
      assert.ok(answer.text.startsWith(`${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 5, 7)}\n${header(APP, 'src/main.mts')}${numbered(APP, 'src/main.mts', 1, 2)}\n`), answer.text);
      assert.ok(answer.text.endsWith(`Showing 2 of 5 references to helper (defined at ${APP} \u2013 src/util.mts:1).\n(more references available - call find_references with limit: 5 to see more)\n`), answer.text);
    });

    test('a shadowing local has only its own references', async () => {
      const answer = await refs({ repo: APP, path: 'src/shadow.mts', symbol: 'helper' });
      assert.equal(answer.text, `${header(APP, 'src/shadow.mts')}${numbered(APP, 'src/shadow.mts', 5, 7)}\nShowing 1 of 1 reference to helper (defined at ${APP} \u2013 src/shadow.mts:1).\n`);
    });

    test('a small budget shows what fits and says the rest is not shown', async () => {
      const answer = await refs({ repo: APP, path: 'src/util.mts', symbol: 'helper' }, 260);
      assert.ok(estimateTokens(answer.text) <= 260);
      assert.match(answer.text, /Showing [1-4] of 5 references to helper/);
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
