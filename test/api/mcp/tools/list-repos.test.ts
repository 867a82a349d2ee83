/**
 * list_repos over the registry's records in a real instance store: substring matching, ranking,
 * visibility, cursors and the budget. The tool reads nothing else (no mirror, no index).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { estimateTokens } from '../../../../src/api/mcp/answer.js';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { listReposTool } from '../../../../src/api/mcp/tools/list-repos.js';
import { createRepoBrowser } from '../../../../src/repos/browser.js';
import { addRepo, reserveRepoId } from '../../../../src/store/repos.js';
import { openTempStore, type TempStore } from '../../../store/temp-store.js';
import { callTool, type CallOptions } from '../tool-context.js';

const SECRET = 'github.com/acme/secret-app';
const PACKAGES = Array.from({ length: 12 }, (_, i) => `example.com/pkg/p${String(i + 1).padStart(2, '0')}`);
const NAMES = ['github.com/acme/app', 'github.com/acme/webapp', 'github.com/app/tools', 'github.com/acme/App-Server', 'github.com/acme/lib', SECRET, ...PACKAGES];

let temp: TempStore;
let services: McpServices;

before(() => {
  temp = openTempStore();
  const { store, dataDir } = temp;
  for (const name of NAMES) {
    const id = reserveRepoId(store);
    addRepo(store, { id, name, source: '/src', mirrorPath: `mirrors/${id}.git`, addedAt: '', lastFetchedAt: null, defaultBranch: 'main', fork: false, archived: false });
  }
  // The tool's one service: repositories as the doors list them.
  services = { repos: createRepoBrowser({ dataDir, store }) } as McpServices;
});

after(async () => {
  await temp.dispose();
});

async function listRepos(args: Record<string, unknown>, options: CallOptions = {}, using = services) {
  const answer = await callTool(using, listReposTool, args, { canRead: (repo) => repo !== SECRET, ...options });
  assert.ok(estimateTokens(answer.text) <= (options.maxAnswerTokens ?? 8000), 'the answer fits its budget');
  return answer;
}

function nextCursor(text: string): string {
  const match = /pass after: "([^"]+)"/.exec(text);
  assert.ok(match, text);
  return match[1]!;
}

function previousCursor(text: string): string {
  const match = /pass before: "([^"]+)"/.exec(text);
  assert.ok(match, text);
  return match[1]!;
}

test('case-insensitive substring match; last-segment matches before the rest; unreadable repos absent', async () => {
  const answer = await listRepos({ query: 'APP' });
  assert.equal(answer.isError, undefined);
  assert.equal(answer.text, 'github.com/acme/App-Server\ngithub.com/acme/app\ngithub.com/acme/webapp\ngithub.com/app/tools\n');
});

test('an exact name comes first', async () => {
  assert.equal((await listRepos({ query: 'github.com/acme/app' })).text, 'github.com/acme/app\ngithub.com/acme/App-Server\n');
});

test('the query is not a regular expression', async () => {
  assert.equal((await listRepos({ query: 'acme/.*' })).text, 'No repositories match "acme/.*".\n');
  assert.equal((await listRepos({ query: 'zzz' })).isError, undefined, 'no match is an answer, not an error');
});

test('a description follows the name', async () => {
  const described: McpServices = {
    ...services,
    repos: { ...services.repos, list: (canRead) => services.repos.list(canRead).map((r) => (r.name === 'github.com/acme/lib' ? { ...r, description: 'Shared\ncode' } : r)) },
  };
  assert.equal((await listRepos({ query: 'lib' }, {}, described)).text, 'github.com/acme/lib - Shared code\n');
});

test('pages: after gives the next page, before the previous one, with counts and cursors', async () => {
  const first = await listRepos({ query: 'pkg/p', limit: 5 });
  assert.equal(first.text, `${PACKAGES.slice(0, 5).join('\n')}\n\nShowing 1-5 of 12 repositories.\n(more results available - set a higher limit or pass after: "${nextCursor(first.text)}" to see more)\n`);
  const second = await listRepos({ query: 'pkg/p', limit: 5, after: nextCursor(first.text) });
  assert.ok(second.text.startsWith(`${PACKAGES.slice(5, 10).join('\n')}\n\nShowing 6-10 of 12 repositories.\n`), second.text);
  const back = await listRepos({ query: 'pkg/p', limit: 5, before: previousCursor(second.text) });
  assert.equal(back.text, first.text);
  const last = await listRepos({ query: 'pkg/p', limit: 5, after: nextCursor(second.text) });
  assert.ok(last.text.startsWith(`${PACKAGES.slice(10).join('\n')}\n\nShowing 11-12 of 12 repositories.\n(earlier results: pass before: "`), last.text);
  assert.ok(!last.text.includes('more results available'));
});

test('the default limit is 50 and limits outside 1..10000 are refused', async () => {
  assert.equal((await listRepos({ query: '' })).text.split('\n').filter((l) => l.includes('.com/')).length, NAMES.length - 1);
  assert.match((await listRepos({ query: 'p', limit: 0 })).text, /"limit" must be at least 1/);
  assert.match((await listRepos({ query: 'p', limit: 10_001 })).text, /"limit" must be at most 10000/);
});

test('bad cursors are tool errors', async () => {
  const first = await listRepos({ query: 'pkg/p', limit: 5 });
  const both = await listRepos({ query: 'pkg/p', after: nextCursor(first.text), before: nextCursor(first.text) });
  assert.equal(both.isError, true);
  assert.equal(both.text, 'Pass either after or before, not both.');
  assert.match((await listRepos({ query: 'pkg/p', after: 'garbage!' })).text, /^Invalid after cursor/);
  assert.match((await listRepos({ query: 'acme', after: nextCursor(first.text) })).text, /^The after cursor belongs to "pkg\/p", not "acme"/);
});

test('the answer budget cuts the page and the cursor continues after the last name shown', async () => {
  const cut = await listRepos({ query: 'pkg/p', limit: 12 }, { maxAnswerTokens: 200 });
  const shown = cut.text.split('\n').filter((l) => l.startsWith('example.com/'));
  assert.ok(shown.length > 0 && shown.length < 12, cut.text);
  assert.match(cut.text, new RegExp(`Showing 1-${shown.length} of 12 repositories \\(the answer budget of 200 tokens is spent\\)\\.\\n\\(more results available - pass after: "`));
  const rest = await listRepos({ query: 'pkg/p', limit: 12, after: nextCursor(cut.text) });
  assert.equal(rest.text.split('\n')[0], PACKAGES[shown.length]);
});
