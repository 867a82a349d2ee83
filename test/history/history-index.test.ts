/**
 * The history index against git itself: diff search and commit_search content terms answer with
 * exactly the commits `git log -G` lists (renames, an evil merge, binary files, a very large diff,
 * Latin-1 lines), page for page as the git-only path does, while reading the diffs of only the
 * commits the index cannot rule out, from the index and not from git; every stored diff equals
 * the one git prints; incremental updates index only the new commits.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { updateCommitIndex } from '../../src/history/commit-indexer.js';
import { CommitTable } from '../../src/history/commit-table.js';
import { parseCommitRecord, readCommitDiffs } from '../../src/history/diff-git.js';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { DIFF_CONTEXT_LINES } from '../../src/history/diff-page.js';
import { searchDiffPage } from '../../src/history/repo-diff-search.js';
import { createDiffHistory, type DiffQuery } from '../../src/history/diff-service.js';
import type { DiffLineRunner } from '../../src/history/diff-lines.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { createHistoryService } from '../../src/history/history-service.js';
import { openCommitStore, type CommitStore, type StoredCommit } from '../../src/index/commits/commit-store.js';
import { openHistoryIndexes, type HistoryIndexes } from '../../src/index/history/history-store.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';
import { appendHistory, logG, RARE_WORDS, writeHistory } from './history-fixture.js';

const COMMITS = 400;
let root: string;
let gitDir: string;
let pool: EnginePool;
let indexes: HistoryIndexes;
let commits: CommitStore;

before(async () => {
  root = makeTempDir('quarry-history-index');
  gitDir = join(root, 'repo.git');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', gitDir);
  writeHistory(gitDir, COMMITS);
  pool = createInThreadEnginePool();
  indexes = openHistoryIndexes(join(root, 'data'));
  commits = openCommitStore(join(root, 'data'));
  const outcome = await updateHistoryIndex(indexes.of(1), gitDir, pool);
  assert.equal(outcome.mode, 'updated');
  assert.equal(outcome.added, Number(git(gitDir, 'rev-list', '--count', '--all')));
});

after(async () => {
  await indexes.close();
  await commits.close();
  await pool.close();
  removeDir(root);
});

/** Counts the commits whose changed lines reach the matcher, read through git (diff-lines) or from the index (diff-records). */
function countingPool(): { runner: DiffLineRunner; matched: () => number; fromGit: () => number } {
  let count = 0;
  let fromGit = 0;
  const runner: DiffLineRunner = {
    submit: ((kind: 'diff-lines' | 'diff-records' | 'text-match', task: never, options?: object) => {
      if (kind === 'diff-lines') {
        count += (task as { commitEnds: Uint32Array }).commitEnds.length;
        fromGit += (task as { commitEnds: Uint32Array }).commitEnds.length;
      }
      if (kind === 'diff-records') count += (task as { ends: Uint32Array }).ends.length;
      return pool.submit(kind, task, options);
    }) as DiffLineRunner['submit'],
  };
  return { runner, matched: () => count, fromGit: () => fromGit };
}

function diffQuery(pattern: string, regex: boolean, count: number): DiffQuery {
  return {
    pattern: compileDiffPattern(pattern, { regex, caseSensitive: false }),
    added: false, removed: false, metadata: null, after: null, before: null, revisions: [], count, deadline: Date.now() + 60_000,
  };
}

/** The commit index brought up to date with the repository, as searches load it. */
async function commitTable(): Promise<CommitTable> {
  await updateCommitIndex(commits, 1, gitDir);
  const all: StoredCommit[] = [];
  for (const chunk of commits.chunks(1)) all.push(...chunk);
  return new CommitTable(all);
}

/** Every page of a diff search, followed by its `next`: the commits and the page boundaries. */
async function allPages(indexed: boolean, pattern: string, regex: boolean, count: number) {
  const { runner, matched, fromGit } = countingPool();
  const table = indexed ? await commitTable() : null;
  const history = createDiffHistory(() => gitDir, runner, () => (indexed ? indexes.of(1) : null), () => Promise.resolve(table && { table, defaultBranch: 'main' }));
  const oids: string[] = [];
  const nexts: (number | null)[] = [];
  let start = 0;
  for (;;) {
    const page = await history.searchDiffs(['repo'], diffQuery(pattern, regex, count), start);
    assert.equal(page.timedOut, false);
    oids.push(...page.hits.map((h) => h.hit.commit.oid));
    nexts.push(page.next);
    if (page.next === null) return { oids, nexts, matched: matched(), fromGit: fromGit() };
    start = page.next;
  }
}

const ERE_ESCAPE = /[\\^$.|?*+()[\]{}]/g;

test('diff search through the index lists exactly the commits git log -G lists, and reads only what the index cannot rule out', async () => {
  const cases: [string, boolean][] = [
    ...RARE_WORDS.map((w): [string, boolean] => [w, false]),
    ['quokkaling', false], ['evilword', false], ['binaryword', false], ['mergeonly', false], ['haystackneedle', false],
    ['latinword', false], ['rawbytes', false], ['caf.', true], ['hay.*needle', true], ['zeph(yr|xx)ine', true],
    ['renamedline', false], ['delta', false], ['mixedcase', false], ['no-such-text', false],
  ];
  for (const [pattern, regex] of cases) {
    const expected = logG(gitDir, regex ? pattern : pattern.replace(ERE_ESCAPE, '\\$&'));
    const withIndex = await allPages(true, pattern, regex, 7);
    const gitOnly = await allPages(false, pattern, regex, 7);
    assert.deepEqual(withIndex.oids, expected, `${pattern}: indexed diff search vs git log -G`);
    assert.deepEqual(gitOnly.oids, expected, `${pattern}: git-only diff search vs git log -G`);
    assert.deepEqual(withIndex.nexts, gitOnly.nexts, `${pattern}: the same pages and cursors`);
    if (expected.length < 20) assert.ok(withIndex.matched <= expected.length + 5, `${pattern}: ${withIndex.matched} commits read for ${expected.length} matches`);
    // The index holds every commit: their stored records are matched in the workers, none read through git.
    assert.equal(withIndex.fromGit, 0, `${pattern}: commits read through git`);
    assert.equal(gitOnly.matched, gitOnly.fromGit);
  }
  assert.deepEqual(logG(gitDir, 'evilword'), [], 'the evil merge is invisible to git log -G');
  assert.equal(logG(gitDir, 'binaryword').length, 0, 'git log -G does not look into binary files');
  assert.equal(logG(gitDir, 'haystackneedle').length, 1);
});

test('every commit the index holds gives back the diff git prints for it', async () => {
  const index = indexes.of(1);
  const oids = git(gitDir, 'rev-list', '--all').split('\n');
  const fromGit = await readCommitDiffs(gitDir, oids, DIFF_CONTEXT_LINES, { timeoutMs: 60_000, maxBytes: 1 << 30 });
  const kinds = { merge: 0, renamed: 0, binary: 0, large: 0 };
  fromGit.forEach((expected, i) => {
    const record = index.record(index.ordinalOf(oids[i]!)!);
    assert.ok(record !== undefined, `${oids[i]} is stored`);
    assert.deepEqual(parseCommitRecord(record), expected, oids[i]);
    if (expected.parents.length > 1) kinds.merge++;
    if (expected.files.some((f) => f.status === 'renamed')) kinds.renamed++;
    if (expected.files.some((f) => f.binary)) kinds.binary++;
    if (expected.files.some((f) => f.added > 100_000)) kinds.large++;
  });
  assert.ok(Object.values(kinds).every((n) => n > 0), `merges, renames, binary files and a very large diff are all stored: ${JSON.stringify(kinds)}`);
});

test('with both indexes a diff search runs no git: every page equals git log -G from a git directory that is gone', async () => {
  const table = await commitTable();
  const tip = git(gitDir, 'rev-parse', 'refs/heads/main');
  const sources = [{ gitDir: join(root, 'no-such-repo.git'), tips: [tip], index: indexes.of(1), commits: table }];
  for (const pattern of ['zephyrine', 'delta', 'renamedline', 'haystackneedle', 'latinword']) {
    const expected = logG(gitDir, pattern);
    const oids: string[] = [];
    let start: number | null = 0;
    while (start !== null) {
      const request = { ...diffQuery(pattern, false, 5) };
      const page = await searchDiffPage(pool, sources, request, start);
      assert.equal(page.timedOut, false);
      oids.push(...page.hits.map((h) => h.hit.commit.oid));
      start = page.next;
    }
    assert.deepEqual(oids, expected, pattern);
  }
});

test('commit_search content terms through the index equal git log -G', async () => {
  const service = createHistoryService(commits, pool, () => indexes.of(1));
  const plain = createHistoryService(commits, pool);
  const repo = { name: 'repo', id: 1, gitDir };
  const criteria = (useRegex: boolean, caseSensitive: boolean) => ({ messageTerms: [], authors: [], committers: [], files: [], useRegex, caseSensitive });
  const cases: [string[], boolean, boolean][] = [
    [['zephyrine'], false, false], [['MixedCaseToken'], false, true], [['mixedcasetoken'], false, false], [['quokkaling', 'haystackneedle'], false, false],
    [['hay.*needle'], true, false], [['lat(i|o)nword'], true, false], [['\\bdelta\\b'], true, false], [['no-such-text'], true, false],
  ];
  for (const [terms, useRegex, caseSensitive] of cases) {
    const request = { repos: [repo], criteria: criteria(useRegex, caseSensitive), contentTerms: terms, revisions: [], count: 1000 };
    const expected = logG(gitDir, terms.map((t) => (useRegex ? `(${t})` : t.replace(ERE_ESCAPE, '\\$&'))).join('|'), { caseSensitive });
    const indexed = await service.searchCommits(request);
    const gitOnly = await plain.searchCommits(request);
    assert.deepEqual(new Set(indexed.commits.map((c) => c.commit.oid)), new Set(expected), `${terms.join(',')}: indexed vs git log -G`);
    assert.deepEqual(indexed.commits.map((c) => c.commit.oid), gitOnly.commits.map((c) => c.commit.oid), `${terms.join(',')}: same order as the git path`);
    assert.equal(indexed.totalCount, gitOnly.totalCount);
  }
  await assert.rejects(service.searchCommits({ repos: [repo], criteria: criteria(true, false), contentTerms: ['a{1'], revisions: [], count: 10 }));
});

test('an update after new commits indexes only those, and they are found', async () => {
  const index = indexes.of(1);
  const unchanged = await updateHistoryIndex(index, gitDir, pool);
  assert.equal(unchanged.mode, 'unchanged');
  const before = index.nextOrdinal();
  // Searched before the update too: what the index ruled out then must not be ruled out after it.
  assert.deepEqual((await allPages(true, 'freshword', false, 50)).oids, []);
  appendHistory(gitDir, 30, 'freshword');
  const outcome = await updateHistoryIndex(index, gitDir, pool);
  assert.equal(outcome.added, 30);
  assert.equal(index.nextOrdinal(), before + 30);
  const found = await allPages(true, 'freshword', false, 50);
  assert.deepEqual(found.oids, logG(gitDir, 'freshword'));
  assert.equal(found.oids.length, 30);
});

test('a commit the index does not hold is read through git', async () => {
  const other = openHistoryIndexes(join(root, 'empty-data'));
  try {
    const history = createDiffHistory(() => gitDir, pool, () => other.of(9));
    const page = await history.searchDiffs(['repo'], diffQuery('zephyrine', false, 100));
    assert.deepEqual(page.hits.map((h) => h.hit.commit.oid), logG(gitDir, 'zephyrine'));
  } finally {
    await other.close();
  }
});
