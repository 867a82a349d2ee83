/**
 * diff_search and commit_search against git itself, through the tools as an agent calls them: the
 * commits of every page together, and the totals the answers state, equal `git log -G` and
 * `git log --grep`; following the cursors visits each commit exactly once. On a small repository
 * built here (a merge that carries a branch's change, a conflict resolved with a new line) always,
 * and on the real histories of ../shared/corpora when they are beside the checkout.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commitSearchTool } from '../../../../src/api/mcp/tools/commit-search.js';
import { diffSearchTool } from '../../../../src/api/mcp/tools/diff-search.js';
import { callTool } from '../tool-context.js';
import { git, makeTempDir, removeDir } from '../../../git/fixtures.js';
import { buildScriptedRepo } from '../../../history/scripted-repo.js';
import { buildMergeHistory, corpusBundle, gitLog, mirrorBundle, NO_CORPORA, type MergeHistory } from '../../../history/merge-history.js';
import { commitSearchIds, diffSearchIds, followCursors, historyServices, literalERE, type HistoryServices } from './history-services.js';

const DEMO = 'example.com/merges';
const OTHER = 'example.com/scripted';

/** Every page's ids together, after checking that no commit came twice. */
function visited(pages: readonly (readonly string[])[]): string[] {
  const all = pages.flat();
  assert.equal(new Set(all).size, all.length, `a commit came on two pages: ${all.join(' ')}`);
  return all;
}

const short = (oids: readonly string[], length: number): string[] => oids.map((oid) => oid.slice(0, length));

describe('history tools against git on a repository with merges', () => {
  let tmp: string;
  let repo: MergeHistory;
  let other: string;
  let history: HistoryServices;
  before(() => {
    tmp = makeTempDir('quarry-history-vs-git');
    repo = buildMergeHistory(join(tmp, 'work'));
    other = buildScriptedRepo(join(tmp, 'other'));
    history = historyServices({ [DEMO]: repo.gitDir, [OTHER]: join(other, '.git') }, join(tmp, 'data'));
  });
  after(async () => {
    await history.close();
    removeDir(tmp);
  });

  const diffPages = (pattern: string, count: number) => followCursors(history.services, diffSearchTool, { pattern, repos: [DEMO], count }, diffSearchIds);

  test('the fixture has what the tests need: a merge carrying a change, and a change no parent made', () => {
    assert.deepEqual(git(repo.dir, 'rev-list', '--parents', '-n1', repo.oids.merge).split(' ').length, 3);
    assert.match(git(repo.dir, 'show', '--format=', '--diff-merges=first-parent', repo.oids.merge), /\+feature_flag = on/);
    assert.match(git(repo.dir, 'show', '--format=', '--cc', repo.oids.conflictMerge), /\+\+mode = resolved_in_merge/);
  });

  test('diff_search: each change once, from the commit that made it, as git log -G; paging visits each once', async () => {
    for (const pattern of ['feature_flag', 'resolved_in_merge', 'mode = from_', 'marker_three', 'step', 'nothing matches this']) {
      const expected = short(gitLog(repo.dir, '-i', `-G${literalERE(pattern)}`, 'HEAD'), 12);
      for (const count of [1, 3, 50]) {
        const { pages, texts } = await diffPages(pattern, count);
        assert.deepEqual(visited(pages), expected, `${pattern}, count ${count}`);
        assert.ok(pages.every((p) => p.length <= count));
        if (count === 50) {
          const total = expected.length === 0 ? /No added or removed lines match/ : new RegExp(`Showing ${expected.length} matching commits? \\(all that match\\)\\.`);
          assert.match(texts[0]!, total, pattern);
        }
      }
    }
    assert.deepEqual(visited((await diffPages('feature_flag', 50)).pages), short([repo.oids.feature], 12), 'the merge that carried the flag is not listed');
    assert.deepEqual(visited((await diffPages('resolved_in_merge', 50)).pages), [], 'git log -G shows no merge, even for a line no parent had');
  });

  test('diff_search: added and removed lines and authors page like git log -G with the same filters', async () => {
    const removed = await followCursors(history.services, diffSearchTool, { pattern: 'mode = ', repos: [DEMO], removed: true, count: 1 }, diffSearchIds);
    const expected = gitLog(repo.dir, '-i', '-Gmode = ', 'HEAD').filter((oid) => /^-(?!--).*mode = /im.test(git(repo.dir, 'show', '--format=', '--unified=0', oid)));
    assert.ok(expected.length >= 2);
    assert.deepEqual(visited(removed.pages), short(expected, 12));
    const byBob = await followCursors(history.services, diffSearchTool, { pattern: 'marker', repos: [DEMO], authors: ['bob'], count: 2 }, diffSearchIds);
    assert.deepEqual(visited(byBob.pages), short(gitLog(repo.dir, '-i', '-Gmarker', '--author=bob', 'HEAD'), 12));
  });

  test('commit_search: messages as git log --grep (merges included), every commit once across pages, the total stated', async () => {
    for (const [terms, flags] of [[['fix'], ['--grep=fix']], [['MERGE', 'step 1'], ['--grep=merge', '--grep=step 1']], [[], []]] as const) {
      const expected = short(gitLog(repo.dir, '-i', '-F', ...flags, 'HEAD'), 10).sort();
      for (const count of [2, 7, 100]) {
        const { pages, texts } = await followCursors(history.services, commitSearchTool, { repos: [DEMO], messageTerms: terms, count }, commitSearchIds);
        assert.deepEqual(visited(pages).sort(), expected, `${terms.join('|')}, count ${count}`);
        if (count >= expected.length) assert.match(texts[0]!, new RegExp(`^${expected.length} commits matched\\.$`, 'm'));
        else assert.match(texts[0]!, new RegExp(`Showing commits 1-${count} of ${expected.length}\\.`));
      }
    }
  });

  test('commit_search: content terms as git log -G, paged', async () => {
    for (const term of ['feature_flag', 'resolved_in_merge', 'marker_three', 'mode =']) {
      const expected = short(gitLog(repo.dir, '-i', `-G${literalERE(term)}`, 'HEAD'), 10).sort();
      const { pages, texts } = await followCursors(history.services, commitSearchTool, { repos: [DEMO], contentTerms: [term], count: 2 }, commitSearchIds);
      assert.deepEqual(visited(pages).sort(), expected, term);
      if (expected.length > 2) assert.match(texts[0]!, new RegExp(`Showing commits 1-2 of ${expected.length}\\.`));
    }
  });

  test('several repositories: pages run newest first across them and together hold each repository\'s git log once', async () => {
    const dated = (dir: string, ...flags: string[]) => git(dir, 'log', '--format=%ct %H', ...flags, 'HEAD').split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]);
    const newestFirst = (lists: [string, string][][], length: number) => lists.flat().sort((a, b) => Number(b[0]) - Number(a[0])).map(([, oid]) => oid.slice(0, length));
    const diffPattern = 'export|step 2';
    const diffs = await followCursors(history.services, diffSearchTool, { pattern: diffPattern, useRegex: true, repos: [DEMO, OTHER], count: 2 }, diffSearchIds);
    const expectedDiffs = newestFirst([dated(repo.dir, '-i', '-G', diffPattern), dated(other, '-i', '-G', diffPattern)], 12);
    assert.ok(dated(repo.dir, '-i', '-G', diffPattern).length > 2 && dated(other, '-i', '-G', diffPattern).length > 2, 'both repositories have matches');
    assert.deepEqual(visited(diffs.pages), expectedDiffs);
    const commits = await followCursors(history.services, commitSearchTool, { repos: [DEMO, OTHER], messageTerms: ['fix'], count: 3 }, commitSearchIds);
    const expectedCommits = newestFirst([dated(repo.dir, '-i', '-F', '--grep=fix'), dated(other, '-i', '-F', '--grep=fix')], 10);
    assert.deepEqual(visited(commits.pages), expectedCommits);
    assert.match(commits.texts[0]!, new RegExp(`Showing commits 1-3 of ${expectedCommits.length}\\.`));
  });

  test('a cursor is refused for another question, and a bad one is a clear error', async () => {
    const first = await callTool(history.services, commitSearchTool, { repos: [DEMO], messageTerms: ['fix'], count: 1 });
    const cursor = /cursor: "([\w-]+)"/.exec(first.text)![1]!;
    const other = await callTool(history.services, commitSearchTool, { repos: [DEMO], messageTerms: ['step'], cursor });
    assert.equal(other.isError, true);
    assert.match(other.text, /cursor belongs to/);
    const diffCursor = /cursor: "([\w-]+)"/.exec((await callTool(history.services, diffSearchTool, { pattern: 'step', repos: [DEMO], count: 1 })).text)![1]!;
    const mixed = await callTool(history.services, diffSearchTool, { pattern: 'marker', repos: [DEMO], cursor: diffCursor });
    assert.deepEqual([mixed.isError, /cursor belongs to/.test(mixed.text)], [true, true]);
    const bad = await callTool(history.services, diffSearchTool, { pattern: 'step', repos: [DEMO], cursor: 'nonsense' });
    assert.deepEqual([bad.isError, /Invalid cursor cursor: pass a cursor exactly as a previous diff_search answer gave it/.test(bad.text)], [true, true]);
  });

  test('a small answer budget moves the cursor to the first commit not shown, so none is skipped', async () => {
    const expected = short(gitLog(repo.dir, '-i', '-Gstep', 'HEAD'), 12);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const answer = await callTool(history.services, diffSearchTool, { pattern: 'step', repos: [DEMO], count: 50, ...(cursor ? { cursor } : {}) }, { maxAnswerTokens: 600 });
      pages.push(diffSearchIds(answer.text));
      cursor = /cursor: "([\w-]+)"/.exec(answer.text)?.[1];
      if (cursor !== undefined) assert.match(answer.text, /the answer budget is spent/);
    } while (cursor !== undefined);
    assert.ok(pages.length > 2, `${pages.length} pages`);
    assert.deepEqual(visited(pages), expected);
  });
});

describe('history tools against git on real repositories (../shared/corpora)', () => {
  const bundle = corpusBundle('koa.bundle');
  const KOA = 'github.com/koajs/koa';
  let tmp: string;
  let gitDir: string;
  let history: HistoryServices;
  before(() => {
    if (bundle === null) return;
    tmp = makeTempDir('quarry-history-corpus');
    gitDir = mirrorBundle(bundle, join(tmp, 'koa.git'));
    history = historyServices({ [KOA]: gitDir }, join(tmp, 'data'));
  });
  after(async () => {
    if (bundle === null) return;
    await history.close();
    removeDir(tmp);
  });
  const skip = bundle === null ? NO_CORPORA : false;

  test('koa: diff_search pages equal git log -G, merges included in the history', { skip }, async () => {
    assert.ok(gitLog(gitDir, '--merges', 'HEAD').length > 100);
    // A budget that holds 50 commits: pages end at count here; the merge fixture covers budget cuts.
    for (const pattern of ['ctx.throw', 'delegate', 'ctx.body']) {
      const expected = short(gitLog(gitDir, '-i', `-G${literalERE(pattern)}`, 'HEAD'), 12);
      const { pages, texts } = await followCursors(history.services, diffSearchTool, { pattern, repos: [KOA], count: 50 }, diffSearchIds, { maxAnswerTokens: 1_000_000 });
      assert.deepEqual(visited(pages), expected, pattern);
      const stated = texts.map((text) => Number(/Showing (\d+) (?:more )?matching commits?/.exec(text)?.[1] ?? 0));
      assert.deepEqual(stated, pages.map((p) => p.length), `${pattern}: each answer states what it shows`);
      assert.match(texts[texts.length - 1]!, texts.length === 1 ? /\(all that match\)/ : /No more commits match\./);
    }
  });

  test('koa: commit_search pages equal git log --grep and git log -G', { skip }, async () => {
    for (const term of ['fix', 'merge']) {
      const expected = short(gitLog(gitDir, '-i', '-F', `--grep=${term}`, 'HEAD'), 10).sort();
      const { pages, texts } = await followCursors(history.services, commitSearchTool, { repos: [KOA], messageTerms: [term], count: 100 }, commitSearchIds);
      assert.deepEqual(visited(pages).sort(), expected, term);
      assert.match(texts[0]!, new RegExp(`of ${expected.length}\\.`));
    }
    const expected = short(gitLog(gitDir, '-i', '-Gctx\\.throw', 'HEAD'), 10).sort();
    const { pages } = await followCursors(history.services, commitSearchTool, { repos: [KOA], contentTerms: ['ctx.throw'], count: 10 }, commitSearchIds);
    assert.deepEqual(visited(pages).sort(), expected);
  });
});
