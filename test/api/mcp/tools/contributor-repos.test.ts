/**
 * get_contributor_repos pages over real repositories and their commit index: following the `after`
 * cursors lists every readable repository with the author's commits once, with git's counts, most
 * first; cursors of another question, malformed ones and lists that changed are answered as such.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { McpServices } from '../../../../src/api/mcp/services.js';
import { getContributorReposTool } from '../../../../src/api/mcp/tools/get-contributor-repos.js';
import { syncRepository } from '../../../../src/repos/registry.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../../e2e/engine-fixture.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../../../git/fixtures.js';
import { callTool, type CallOptions, mcpServicesOf } from '../tool-context.js';

const ALICE = 'Alice Example <alice@example.com>';
/** Commits by Alice in each repository; equal counts exercise the order's ties. */
const ALICE_COMMITS = [3, 1, 3, 2, 5, 1, 2, 4];
const NAMES = ALICE_COMMITS.map((_, i) => `example.com/team/r${i}`);
const SECRET = 'example.com/team/secret';
const NEXT_CALL = /\n\(more available - call get_contributor_repos with (\{.*\}) to see the next ones\)\n$/;
const LINE = /^(\S+) - (\d+) commits?, latest \d{4}-\d{2}-\d{2}$/;

let engine: EngineFixture;
let tmp: string;
let services: McpServices;
const sourceOf = new Map<string, string>();
const canRead = (repo: string): boolean => repo !== SECRET;

before(async () => {
  engine = await createEngineFixture({ pool: 'in-thread' });
  tmp = makeTempDir('quarry-contributor-repos');
  for (const [i, name] of [...NAMES, SECRET].entries()) {
    const dir = initRepo(`${tmp}/${name.split('/').at(-1)}`);
    writeFiles(dir, { 'README.md': `${name}\n` });
    commitAll(dir, 'initial, by the test author');
    for (let c = 0; c < (ALICE_COMMITS[i] ?? 2); c++) git(dir, 'commit', '--quiet', '--allow-empty', `--author=${ALICE}`, '-m', `alice ${c}`);
    sourceOf.set(name, dir);
    await addAndIndex(engine, name, dir);
  }
  services = { ...mcpServicesOf(engine), history: engine.engine.history };
});

after(async () => {
  await engine.engine.close();
  removeDir(engine.dataDir);
  removeDir(tmp);
});

const contributorRepos = (args: Record<string, unknown>, options: CallOptions = {}) => callTool(services, getContributorReposTool, args, { canRead, ...options });

function nextArgs(text: string): Record<string, unknown> | null {
  const next = NEXT_CALL.exec(text);
  return next === null ? null : JSON.parse(next[1]!) as Record<string, unknown>;
}

/** Each page's [repository, commit count] rows, following the next calls exactly as given. */
async function followPages(args: Record<string, unknown>, options: CallOptions = {}): Promise<[string, number][][]> {
  const pages: [string, number][][] = [];
  let next: Record<string, unknown> | null = args;
  while (next !== null) {
    assert.ok(pages.length < 50, 'the cursors end');
    const answer = await contributorRepos(next, options);
    assert.equal(answer.isError, undefined, answer.text);
    assert.doesNotMatch(answer.text, /changed since the previous page/);
    pages.push(answer.text.split('\n').map((l) => LINE.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, Number(m[2])]));
    next = nextArgs(answer.text);
  }
  return pages;
}

function gitCounts(): [string, number][] {
  return NAMES.map((name): [string, number] => [name, git(sourceOf.get(name)!, 'log', '-i', '--author=alice', '--format=%H', 'HEAD').split('\n').filter(Boolean).length]);
}

test('the pages list every readable repository with the author\'s commits once, with git\'s counts, most commits first', async () => {
  for (const [args, options, minPages] of [[{ authors: ['ALICE@example'], limit: 3 }, {}, 3], [{ author: 'alice' }, { maxAnswerTokens: 180 }, 3]] as const) {
    const pages = await followPages(args, options);
    assert.ok(pages.length >= minPages, `${pages.length} pages`);
    for (const page of pages) assert.ok(page.length > 0 && page.length <= 3, `${page.length} repositories on a page`);
    const rows = pages.flat();
    assert.equal(new Set(rows.map(([name]) => name)).size, rows.length, 'no repository twice');
    assert.deepEqual([...rows].sort(), gitCounts().sort());
    const counts = rows.map(([, count]) => count);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a), 'most commits first, across pages');
  }
  const first = await contributorRepos({ authors: ['alice'], limit: 3 });
  assert.match(first.text, /\nShowing 1-3 of 8 repositories with commits by "alice"\.\n\(more available - call get_contributor_repos with \{"authors":\["alice"\],"limit":3,"after":"[\w-]+"\} to see the next ones\)\n$/);
});

test('a cursor of another question, or one not made by the tool, is a tool error', async () => {
  const { after: cursor } = nextArgs((await contributorRepos({ author: 'alice', limit: 2 })).text)!;
  const other = await contributorRepos({ author: 'bob', limit: 2, after: cursor });
  assert.equal(other.isError, true);
  assert.equal(other.text, 'The after cursor belongs to "get_contributor_repos "alice" with at least 1 commit", not "get_contributor_repos "bob" with at least 1 commit": repeat that call or start again without a cursor.');
  const fewer = await contributorRepos({ author: 'alice', minCommits: 2, after: cursor });
  assert.equal(fewer.isError, true);
  assert.match(fewer.text, /not "get_contributor_repos "alice" with at least 2 commits"/);
  const bad = await contributorRepos({ author: 'alice', after: 'bm90IGpzb24' });
  assert.equal(bad.isError, true);
  assert.equal(bad.text, 'Invalid after cursor: pass a cursor exactly as a previous get_contributor_repos answer gave it.');
});

test('new commits to a repository already shown are said to have changed the list', async () => {
  const next = nextArgs((await contributorRepos({ author: 'alice', limit: 2 })).text)!;
  const name = NAMES[ALICE_COMMITS.indexOf(Math.max(...ALICE_COMMITS))]!;
  git(sourceOf.get(name)!, 'commit', '--quiet', '--allow-empty', `--author=${ALICE}`, '-m', 'one more');
  await syncRepository({ dataDir: engine.dataDir, store: engine.engine.store }, name);
  await engine.indexRepo(name);
  const changed = await contributorRepos(next);
  assert.equal(changed.isError, undefined);
  assert.match(changed.text, /\nNote: the repositories or their commit counts changed since the previous page was made .*; call again without after to start over\.\n/);
});
