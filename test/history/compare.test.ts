/**
 * compareCommits against git itself: per-file added/deleted and totals equal `git diff --numstat
 * base...head`; renames, deletions, binary files, merges; offset cursors page over files.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareCommits, pageFiles } from '../../src/history/compare.js';
import { listAncestors } from '../../src/history/compare-log.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { isQuarryError } from '../../src/errors.js';
import { git } from '../git/fixtures.js';
import { createDiffRepo, expectNumstat, removeDiffRepo, type DiffRepo } from './diff-fixture.js';

let repo: DiffRepo;
let pool: EnginePool;
before(() => {
  repo = createDiffRepo();
  pool = createInThreadEnginePool();
});
after(async () => {
  await pool.close();
  removeDiffRepo(repo);
});

test('file diffs and totals equal git diff --numstat base...head', async () => {
  const { c1, c2, c3, f1, m1, merge, empty } = repo.oids;
  for (const [base, head] of [[c1, merge], [c1, c2], [c2, c3], [c3, f1], [f1, m1], [m1, f1], [empty, empty]] as const) {
    const comparison = await compareCommits(repo.dir, base, head);
    const expected = expectNumstat(repo, base, head);
    const actual = new Map(comparison.files.map((f) => [f.newPath ?? f.oldPath!, f.binary ? null : [f.added, f.deleted]]));
    assert.deepEqual(actual, expected, `${base.slice(0, 7)}...${head.slice(0, 7)}`);
    const lines = [...expected.values()].filter((v) => v !== null) as [number, number][];
    assert.equal(comparison.totals.linesAdded, lines.reduce((n, v) => n + v[0], 0));
    assert.equal(comparison.totals.linesDeleted, lines.reduce((n, v) => n + v[1], 0));
  }
});

test('renames, deletions and binary changes are described, hunks carry ranges and bodies', async () => {
  const { c2, c3, f1 } = repo.oids;
  const renamed = await compareCommits(repo.dir, c2, c3);
  const rename = renamed.files.find((f) => f.status === 'renamed')!;
  assert.deepEqual([rename.oldPath, rename.newPath], ['a.txt', 'b file.txt']);
  assert.deepEqual(rename.hunks.map((h) => [h.oldRange, h.newRange]), [[{ startLine: 2, lines: 3 }, { startLine: 2, lines: 4 }]]);
  assert.deepEqual(rename.hunks[0]!.lines.at(-1), { kind: '+', text: 'epsilon', oldLine: null, newLine: 5 });
  const deleted = renamed.files.find((f) => f.status === 'deleted')!;
  assert.deepEqual([deleted.oldPath, deleted.newPath, deleted.deleted], ['sp ace.txt', null, 1]);
  assert.deepEqual(renamed.totals, { linesAdded: 1, linesDeleted: 1, filesAdded: 0, filesDeleted: 1, filesModified: 1 });
  const binary = (await compareCommits(repo.dir, c3, f1)).files.find((f) => f.newPath === 'bin.dat')!;
  assert.deepEqual([binary.binary, binary.hunks.length, binary.status], [true, 0, 'modified']);
});

test('a file without a final newline is flagged on the right side', async () => {
  const keep = (await compareCommits(repo.dir, repo.oids.c1, repo.oids.c2)).files.find((f) => f.newPath === 'keep.txt')!;
  const last = keep.hunks.at(-1)!;
  assert.equal(last.newNoNewlineAtEnd, true);
  assert.equal(last.oldNoNewlineAtEnd, false);
});

test('the diff starts at the merge base: base...head, not base..head', async () => {
  const { f1, m1 } = repo.oids;
  const comparison = await compareCommits(repo.dir, m1, f1);
  assert.equal(comparison.from, git(repo.dir, 'merge-base', m1, f1));
  assert.deepEqual(comparison.files.map((f) => f.newPath).sort(), ['bin.dat', 'feature.txt']);
});

test('pages of files follow each other through cursors, and bad cursors are errors', async () => {
  const { files } = await compareCommits(repo.dir, repo.oids.c1, repo.oids.merge);
  assert.ok(files.length >= 3);
  const first = pageFiles(files, 2, null);
  assert.deepEqual([first.files.length, first.hasNextPage, first.endCursor], [2, true, '2']);
  const rest = pageFiles(files, 50, first.endCursor);
  assert.deepEqual([...first.files, ...rest.files], [...files]);
  assert.deepEqual([rest.hasNextPage, rest.endCursor], [false, null]);
  for (const bad of ['x', '-1', String(files.length + 1)]) {
    assert.throws(() => pageFiles(files, 2, bad), (err) => isQuarryError(err, 'INVALID_ARGUMENT'));
  }
});

test('unknown revisions are REVISION_NOT_FOUND errors naming the revision', async () => {
  const diffs = createDiffHistory(() => repo.dir, pool);
  await assert.rejects(diffs.compare('r', 'main', 'no-such-branch'), (err) => isQuarryError(err, 'REVISION_NOT_FOUND') && /no-such-branch/.test(err.message));
  await assert.rejects(diffs.compare('r', '--output=/tmp/x', 'main'), (err) => isQuarryError(err, 'REVISION_NOT_FOUND'));
  const ok = await diffs.compare('r', 'v1', 'main');
  assert.equal(ok.base, repo.oids.c2);
});

test('ancestors page through git log, optionally by path', async () => {
  const all = git(repo.dir, 'log', '--format=%H', repo.oids.merge).split('\n');
  const first = await listAncestors(repo.dir, repo.oids.merge, { first: 3 });
  assert.deepEqual(first.oids, all.slice(0, 3));
  const second = await listAncestors(repo.dir, repo.oids.merge, { first: 100, afterCursor: first.endCursor });
  assert.deepEqual([...first.oids, ...second.oids], all);
  assert.equal(second.hasNextPage, false);
  const byPath = await listAncestors(repo.dir, repo.oids.merge, { first: 10, path: 'sp ace.txt' });
  assert.deepEqual(byPath.oids, git(repo.dir, 'log', '--format=%H', repo.oids.merge, '--', 'sp ace.txt').split('\n'));
});
