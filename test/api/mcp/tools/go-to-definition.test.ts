/** go_to_definition over the labelled fixtures: exact answers, methods, imports across repositories, revisions, errors. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { goToDefinitionTool } from '../../../../src/api/mcp/tools/go-to-definition.js';
import { callTool } from '../tool-context.js';
import { APP, BACKENDS, canRead, numbered, SECRET, WEB, type NavigationBackend } from './nav-fixture.js';

const go = (args: Record<string, unknown>) => callTool(backend.services, goToDefinitionTool, args, { canRead });
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

    test('an imported function: the header and the whole definition, numbered', async () => {
      const answer = await go({ repo: APP, path: 'src/main.mts', symbol: 'Router' });
      assert.equal(answer.isError, undefined);
      assert.equal(answer.text, `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 9, 17)}`);
    });

    test('across repositories: a package import from web resolves into app', async () => {
      const answer = await go({ repo: WEB, path: 'src/page.mts', symbol: 'helper' });
      assert.equal(answer.text, `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 1, 3)}`);
    });

    test('methods by bare name and qualified, through the type the receiver is made with; Go packages; Python relative imports', async () => {
      // `const router = new Router()`: router.route is Router's method, not a guess by name.
      assert.equal((await go({ repo: APP, path: 'src/main.mts', symbol: 'route' })).text, `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 10, 12)}`);
      assert.equal((await go({ repo: APP, path: 'src/main.mts', symbol: 'router.route' })).text, `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 10, 12)}`);
      assert.ok((await go({ repo: 'github.com/acme/gocmd', path: 'cmd/main.go', symbol: 'util.Reverse' })).text.startsWith(`${header('github.com/acme/gocmd', 'util/reverse.go')}4: func Reverse`));
      assert.ok((await go({ repo: 'github.com/acme/gocmd', path: 'cmd/main.go', symbol: 'strs.Reverse' })).text.startsWith(`${header('github.com/acme/lib', 'strs/reverse.go')}4: func Reverse`));
      assert.ok((await go({ repo: 'github.com/acme/py', path: 'pkg/service.py', symbol: 'User' })).text.startsWith(`${header('github.com/acme/py', 'pkg/models.py')}1: class User`));
    });

    test('a line picks the occurrence: the local helper on line 6, the imported one on line 11', async () => {
      const local = await go({ repo: APP, path: 'src/main.mts', symbol: 'helper', line: 6 });
      assert.equal(local.text, `${header(APP, 'src/main.mts')}${numbered(APP, 'src/main.mts', 5, 5)}`);
      const imported = await go({ repo: APP, path: 'src/main.mts', symbol: 'helper', line: 11, column: 3 });
      assert.equal(imported.text, `${header(APP, 'src/util.mts')}${numbered(APP, 'src/util.mts', 1, 3)}`);
      const columnAlone = await go({ repo: APP, path: 'src/main.mts', symbol: 'helper', column: 3 });
      assert.equal(columnAlone.isError, true);
      assert.match(columnAlone.text, /"column" needs "line"/);
    });

    test('a revision that is not indexed is parsed on demand, and the answer says so', async () => {
      const answer = await go({ repo: APP, path: 'src/main.mts', symbol: 'normalize', revision: 'feature' });
      assert.equal(answer.isError, undefined);
      assert.match(answer.text, new RegExp(`^# ${APP} \u2013 src/main.mts\n17: export function normalize`));
      assert.match(answer.text, /src\/main\.mts was read at github\.com\/acme\/app@feature, which is not indexed/);
    });

    test('unknown symbols, files, repositories and revisions are tool errors', async () => {
      const unknown = await go({ repo: APP, path: 'src/main.mts', symbol: 'nothingLikeThis' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /^Symbol not found/);
      assert.match((await go({ repo: APP, path: 'src/nope.mts', symbol: 'x' })).text, /^File not found: src\/nope\.mts/);
      assert.match((await go({ repo: SECRET, path: 'x.mts', symbol: 'helper' })).text, /^Repository not found: github\.com\/acme\/secret/);
      assert.match((await go({ repo: APP, path: 'src/main.mts', symbol: 'x', revision: 'nope' })).text, /^Revision not found: nope/);
      assert.match((await go({ repo: APP, path: 'src/main.mts' })).text, /"symbol" is required/);
    });
  });
}
