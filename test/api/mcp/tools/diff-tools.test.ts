/**
 * diff_search and compare_revisions as agents call them: text format, totals and cursors, the
 * answer budget, restricted repositories answered like missing ones, and bad input as tool errors.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { compareRevisionsTool } from '../../../../src/api/mcp/tools/compare-revisions.js';
import { diffSearchTool } from '../../../../src/api/mcp/tools/diff-search.js';
import { createDiffHistory } from '../../../../src/history/diff-service.js';
import { createInThreadEnginePool } from '../../../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../../../src/pool/pool.js';
import type { RepoBrowser, RepoInfo } from '../../../../src/model/repos.js';
import { createDiffRepo, expectNumstat, removeDiffRepo, type DiffRepo } from '../../../history/diff-fixture.js';
import { callTool } from '../tool-context.js';

const APP = 'github.com/acme/app';
const SECRET = 'github.com/acme/secret';
const canRead = (name: string): boolean => name !== SECRET;

let repo: DiffRepo;
let pool: EnginePool;
let services: McpServices;
before(() => {
  repo = createDiffRepo();
  pool = createInThreadEnginePool();
  const info = (name: string): RepoInfo => ({ id: 1, name, description: '', fork: false, archived: false, private: false, defaultBranch: 'main' });
  const repos = {
    get: (name: string, allowed: (r: string) => boolean) => ([APP, SECRET].includes(name) && allowed(name) ? info(name) : null),
    list: (allowed: (r: string) => boolean) => [APP, SECRET].filter(allowed).map(info),
  } as unknown as RepoBrowser;
  services = { repos, diffs: createDiffHistory(() => repo.dir, pool) } as unknown as McpServices;
});
after(async () => {
  await pool.close();
  removeDiffRepo(repo);
});

test('diff_search answers with headers, numbered lines and match ranges, newest first', async () => {
  const answer = await callTool(services, diffSearchTool, { pattern: 'epsilon', repos: [APP] }, { canRead });
  assert.equal(answer.isError, undefined);
  const short = repo.oids.c3.slice(0, 12);
  assert.match(answer.text, new RegExp(`^# ${APP} \u2013 ${short} \u2013 b file.txt \\(renamed from a.txt\\)\n`));
  assert.match(answer.text, /Alice <alice@example.com> · 2024-03-01T10:00:00Z · third: rename and delete\n/);
  assert.match(answer.text, /\n\+5: epsilon\nmatches: \+5:0-7\n/);
  assert.match(answer.text, /Showing 1 matching commit \(all that match\)\./);
  const removed = await callTool(services, diffSearchTool, { pattern: 'GAMMA', repos: [APP], removed: true, count: 5 }, { canRead });
  assert.match(removed.text, /\n-3: gamma\n 3: delta\nmatches: -3:0-5\n/);
});

test('diff_search says when more commits exist and keeps within the budget', async () => {
  const limited = await callTool(services, diffSearchTool, { pattern: 'delta', repos: [APP], count: 1 }, { canRead });
  assert.match(limited.text, /Showing 1 matching commit\. More commits match: call diff_search with the same arguments and cursor: "[\w-]+" to see the next ones/);
  const small = await callTool(services, diffSearchTool, { pattern: 'delta', repos: [APP] }, { canRead, maxAnswerTokens: 250 });
  assert.ok(small.text.length <= 250 * 4, `${small.text.length} characters`);
  assert.match(small.text, /too large for the answer budget|the answer budget is spent/);
});

test('diff_search: restricted repositories look missing; bad dates, patterns and revisions are tool errors', async () => {
  const secret = await callTool(services, diffSearchTool, { pattern: 'delta', repos: [SECRET] }, { canRead });
  const missing = await callTool(services, diffSearchTool, { pattern: 'delta', repos: ['github.com/acme/nope'] }, { canRead });
  assert.equal(secret.isError, true);
  assert.equal(secret.text.replace(SECRET, 'X'), missing.text.replace('github.com/acme/nope', 'X'));
  for (const [args, message] of [
    [{ pattern: 'delta', repos: [APP], after: 'the day before yesterday-ish' }, /cannot read .* as a date/],
    [{ pattern: '(delta', repos: [APP], useRegex: true }, /regexp/],
    [{ pattern: 'delta', repos: [APP], revisions: ['no-such'] }, /Revision not found: no-such/],
    [{ pattern: 'delta', repos: [APP], count: 51 }, /count" must be at most 50/],
  ] as const) {
    const answer = await callTool(services, diffSearchTool, args, { canRead });
    assert.equal(answer.isError, true, JSON.stringify(args));
    assert.match(answer.text, message);
  }
});

test('compare_revisions totals and files equal git diff --numstat, paged by cursor', async () => {
  const expected = expectNumstat(repo, repo.oids.c1, repo.oids.merge);
  const first = await callTool(services, compareRevisionsTool, { repo: APP, base: repo.oids.c1, head: 'main', first: 2 }, { canRead });
  assert.equal(first.isError, undefined);
  const lines = [...expected.values()].filter((v) => v !== null) as [number, number][];
  const added = lines.reduce((n, v) => n + v[0], 0);
  const deleted = lines.reduce((n, v) => n + v[1], 0);
  assert.match(first.text, new RegExp(`${expected.size} files changed \\(\\d+ added, \\d+ modified, \\d+ deleted\\), ${added} lines? added, ${deleted} lines? deleted`));
  const cursor = /Showing files 1-2 of \d+; for the next files call compare_revisions with after: "([\w-]+)"/.exec(first.text)?.[1];
  assert.ok(cursor, first.text);
  const second = await callTool(services, compareRevisionsTool, { repo: APP, base: repo.oids.c1, head: 'main', first: 100, after: cursor }, { canRead });
  const files = [...first.text.matchAll(/^[AMDRC] (\+\d+ -\d+|binary) (.+?)(?: \(from .+\))?$/gm), ...second.text.matchAll(/^[AMDRC] (\+\d+ -\d+|binary) (.+?)(?: \(from .+\))?$/gm)];
  assert.equal(files.length, expected.size);
  for (const [, counts, path] of files) {
    const stat = expected.get(path!);
    assert.equal(counts, stat === null ? 'binary' : `+${stat![0]} -${stat![1]}`, path);
  }
});

test('compare_revisions: unknown revisions, bad cursors and unreadable repositories are tool errors', async () => {
  const bad = await callTool(services, compareRevisionsTool, { repo: APP, base: 'main~99', head: 'main' }, { canRead });
  assert.deepEqual([bad.isError, /Revision not found: main~99/.test(bad.text)], [true, true]);
  const cursor = await callTool(services, compareRevisionsTool, { repo: APP, base: 'v1', head: 'main', after: 'zz' }, { canRead });
  assert.deepEqual([cursor.isError, /Invalid after cursor/.test(cursor.text)], [true, true]);
  const secret = await callTool(services, compareRevisionsTool, { repo: SECRET, base: 'v1', head: 'main' }, { canRead });
  assert.deepEqual([secret.isError, /Repository not found/.test(secret.text)], [true, true]);
  const same = await callTool(services, compareRevisionsTool, { repo: APP, base: 'main', head: 'main' }, { canRead });
  assert.match(same.text, /No changes\./);
});
