/**
 * The commit index's replay of git log's order against git itself: a generated history with many
 * branches and merges (octopus ones too), commits sharing a committer date, and clocks that run
 * backwards (children older than their parents), walked from one tip and from several.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { updateCommitIndex } from '../../src/history/commit-indexer.js';
import { CommitTable } from '../../src/history/commit-table.js';
import { walkLikeGitLog } from '../../src/history/commit-walk.js';
import { openCommitStore, type StoredCommit } from '../../src/index/commits/commit-store.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';

const BRANCHES = 6;
const COMMITS = 900;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A fast-import stream: commits on random branches, a third of them merging one to three other branches. */
function tangledHistory(seed: number): string {
  const rand = random(seed);
  const tips: (number | null)[] = Array.from({ length: BRANCHES }, () => null);
  const parts: string[] = [];
  let date = 1_600_000_000;
  for (let mark = 1; mark <= COMMITS; mark++) {
    const branch = Math.floor(rand() * BRANCHES);
    // Mostly forward, often the same second, sometimes hours backwards.
    const roll = rand();
    date += roll < 0.35 ? 0 : roll < 0.85 ? 60 : -7200;
    parts.push(`commit refs/heads/b${branch}\nmark :${mark}\ncommitter Dev <dev@example.com> ${date} +0000\ndata 3\nc${mark % 10}\n`);
    const from = tips[branch] ?? tips.find((t) => t !== null) ?? null;
    if (from !== null) parts.push(`from :${from}\n`);
    if (rand() < 0.33) {
      const others = tips.filter((t, b): t is number => t !== null && b !== branch && t !== from).slice(0, 1 + Math.floor(rand() * 3));
      for (const other of others) parts.push(`merge :${other}\n`);
    }
    parts.push(`M 100644 inline f${mark % 7}.txt\ndata ${String(mark).length + 1}\n${mark}\n\n`);
    tips[branch] = mark;
  }
  return parts.join('');
}

test('walkLikeGitLog lists the commits git log lists, in git log order, from one tip and from several', async () => {
  const root = makeTempDir('quarry-commit-walk');
  const store = openCommitStore(join(root, 'data'));
  try {
    const gitDir = join(root, 'repo.git');
    git(root, 'init', '--quiet', '--bare', '--initial-branch=b0', gitDir);
    execFileSync('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: tangledHistory(5) });
    await updateCommitIndex(store, 1, gitDir);
    const commits: StoredCommit[] = [];
    for (const chunk of store.chunks(1)) commits.push(...chunk);
    const table = new CommitTable(commits);
    const branches = git(gitDir, 'for-each-ref', '--format=%(objectname)', 'refs/heads').split('\n').filter((l) => l !== '');
    const tipSets = [...branches.map((b) => [b]), branches, [branches[3]!, branches[1]!], [branches[2]!, branches[2]!]];
    let merges = 0;
    for (const tips of tipSets) {
      const expected = execFileSync('git', ['--git-dir', gitDir, 'log', '--format=%H', ...tips, '--'], { encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n').filter((l) => l !== '');
      const walked = walkLikeGitLog(table, tips.map((tip) => table.ordinalOf(tip)!)).map((o) => table.commits[o]!.oid);
      assert.deepEqual(walked, expected, `tips ${tips.map((t) => t.slice(0, 7)).join(',')}`);
      merges = Math.max(merges, walked.filter((oid) => table.commits[table.ordinalOf(oid)!]!.parents.length > 1).length);
    }
    assert.ok(merges > 50, `the history has merges to walk through (${merges})`);
    const dates = commits.map((c) => c.committerDate);
    assert.ok(dates.some((d, i) => i > 0 && d < dates[i - 1]!), 'some clocks run backwards');
    assert.ok(new Set(dates).size < dates.length * 0.8, 'many commits share a date');
  } finally {
    await store.close();
    removeDir(root);
  }
});
