/** list_refs over a real repository: order (default branch, branches, tags newest first), the query filter, paging, names and errors. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { listRefsTool } from '../../../../src/api/mcp/tools/list-refs.js';
import { mcpServices } from '../../../../src/server/mcp.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool } from '../tool-context.js';

const MUX = 'github.com/gorilla/mux';
const SECRET = 'github.com/acme/secret';
const canRead = (repo: string): boolean => repo !== SECRET;

let engine: EngineFixture;
let services: McpServices;
let sources = '';
let head = '';

before(async () => {
  engine = await createEngineFixture({ pool: 'in-thread' });
  sources = makeTempDir('quarry-refs');
  const dir = initRepo(`${sources}/mux`);
  writeFiles(dir, { 'mux.go': 'package mux\n' });
  head = commitAll(dir, 'initial');
  for (const tag of ['v1.8.0', 'v1.10.0', 'v1.9.1', 'release-notes', 'zcrate-2.0.0']) git(dir, 'tag', tag);
  for (const branch of ['feature/routes', 'dev']) git(dir, 'branch', branch);
  await addAndIndex(engine, MUX, dir);
  const secret = initRepo(`${sources}/secret`);
  writeFiles(secret, { 'a.txt': 'a\n' });
  commitAll(secret, 'initial');
  await addAndIndex(engine, SECRET, secret);
  services = mcpServices(engine.engine);
});

after(async () => {
  await engine.engine.close();
  removeDir(engine.dataDir);
  removeDir(sources);
});

const refs = (args: Record<string, unknown>) => callTool(services, listRefsTool, args, { canRead });
const short = (): string => head.slice(0, 12);

test('the default branch first, then branches by name, then release tags newest first, then other tags', async () => {
  const answer = await refs({ repo: 'gorilla/mux' });
  assert.equal(answer.isError, undefined, answer.text);
  assert.equal(answer.text, [
    `branch main ${short()}`, `branch dev ${short()}`, `branch feature/routes ${short()}`,
    `tag v1.10.0 ${short()}`, `tag v1.9.1 ${short()}`, `tag v1.8.0 ${short()}`, `tag zcrate-2.0.0 ${short()}`, `tag release-notes ${short()}`,
    '', 'Showing 1-8 of 8 refs.', '',
  ].join('\n'));
});

test('query keeps the names containing it; none is an answer that says how to see all', async () => {
  assert.match((await refs({ repo: MUX, query: 'V1.' })).text, /^tag v1\.10\.0 \w+\ntag v1\.9\.1 \w+\ntag v1\.8\.0 \w+\n\nShowing 1-3 of 3 refs\.\n$/);
  assert.equal((await refs({ repo: MUX, query: 'nope' })).text, `No branch or tag of ${MUX} contains "nope". Call list_refs without query to see them all.\n`);
});

test('pages with the after cursor, every ref once', async () => {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 10; page++) {
    const answer = await refs({ repo: MUX, limit: 3, ...(after === undefined ? {} : { after }) });
    seen.push(...answer.text.split('\n').filter((l) => /^(branch|tag) /.test(l)));
    after = /after: "([\w-]+)"/.exec(answer.text)?.[1];
    if (after === undefined) break;
  }
  assert.equal(seen.length, 8);
  assert.equal(new Set(seen).size, 8);
  const other = await refs({ repo: MUX, query: 'v1', after: /after: "([\w-]+)"/.exec((await refs({ repo: MUX, limit: 1 })).text)![1] });
  assert.equal(other.isError, true);
  assert.match(other.text, /^The after cursor belongs to/);
});

test('an unreadable repository is answered as a missing one', async () => {
  const hidden = await refs({ repo: SECRET });
  assert.equal(hidden.isError, true);
  assert.match(hidden.text, /^Repository not found: github\.com\/acme\/secret\./);
});
