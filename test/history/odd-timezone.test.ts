/**
 * Commits whose recorded timezone no date parser accepts (psf/requests holds one with +518:00, git's
 * ISO form of the offset +51800): diff_search and the commit header read them, in UTC, instead of
 * failing the whole answer.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../src/api/mcp/services.js';
import { diffSearchTool } from '../../src/api/mcp/tools/diff-search.js';
import { readCommitHeader } from '../../src/git/commit.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import type { RepoBrowser, RepoInfo } from '../../src/model/repos.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { callTool } from '../api/mcp/tool-context.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const REPO = 'github.com/acme/odd';
/** 2011-09-08T02:38:50Z, written with the offset of the real commit. */
const SECONDS = 1315449530;

let tmp: string;
let gitDir: string;
let odd: string;
let pool: EnginePool;
let services: McpServices;

before(() => {
  tmp = makeTempDir('quarry-odd-tz');
  const dir = initRepo(join(tmp, 'repo'));
  writeFiles(dir, { 'compat.py': 'import json\n' });
  const parent = commitAll(dir, 'first');
  writeFiles(dir, { 'compat.py': 'import simplejson as json\n' });
  git(dir, 'add', '-A');
  const tree = git(dir, 'write-tree');
  // git commit refuses such an offset; history written elsewhere carries it, so write the object as it is.
  const object = `tree ${tree}\nparent ${parent}\nauthor Kenneth <k@example.com> ${SECONDS} +51800\ncommitter Kenneth <k@example.com> ${SECONDS} +51800\n\nuse simplejson\n`;
  odd = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'], { cwd: dir, input: object, encoding: 'utf8' }).trim();
  git(dir, 'update-ref', 'refs/heads/main', odd);
  gitDir = join(dir, '.git');
  pool = createInThreadEnginePool();
  const info: RepoInfo = { id: 1, name: REPO, description: '', fork: false, archived: false, private: false, defaultBranch: 'main' };
  const repos = { get: (name: string) => (name === REPO ? info : null), list: () => [info] } as unknown as RepoBrowser;
  services = { repos, diffs: createDiffHistory(() => gitDir, pool) } as unknown as McpServices;
});

after(async () => {
  await pool.close();
  removeDir(tmp);
});

test('git prints the offset as no parser reads it', () => {
  assert.match(git(gitDir, 'log', '-1', '--format=%aI', odd), /\+518:00$/);
});

test('diff_search lists the commit with its time in UTC', async () => {
  const answer = await callTool(services, diffSearchTool, { pattern: 'import simplejson', repos: [REPO] });
  assert.equal(answer.isError, undefined, answer.text);
  assert.match(answer.text, /Kenneth <k@example\.com> · 2011-09-08T02:38:50Z · use simplejson/);
});

test('the commit header reads it too', async () => {
  assert.equal((await readCommitHeader(gitDir, odd)).authorDate, '2011-09-08T02:38:50Z');
});
