/**
 * Matched hunks cut to the lines around their matches, on diffs git printed: every matched line
 * is kept once, with its neighbours, and each cut hunk's ranges and line numbers agree with the
 * files on both sides of the commit, as a hunk git printed would.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCommitDiffs } from '../../src/history/diff-git.js';
import type { DiffHunk, HunkHit } from '../../src/history/diff-model.js';
import { matchWindows } from '../../src/history/hunk-window.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const lines = (n: number, label: string, needles: Record<number, string> = {}): string => Array.from({ length: n }, (_, i) => needles[i + 1] ?? `${label} ${i + 1}`).join('\n') + '\n';

test('cut hunks keep each match with its neighbours, and their ranges agree with the files', async () => {
  const root = makeTempDir('quarry-hunk-window');
  try {
    const work = initRepo(join(root, 'work'));
    writeFiles(work, { 'a.txt': lines(60, 'old', { 30: 'old needle 30' }) });
    commitAll(work, 'first');
    // Lines 5-55 all change: one hunk of about a hundred changed lines, a match on each side.
    const changed = lines(60, 'new', { 1: 'old 1', 2: 'old 2', 3: 'old 3', 4: 'old 4', 20: 'new needle 20', 56: 'old 56', 57: 'old 57', 58: 'old 58', 59: 'old 59', 60: 'old 60', 21: 'new needle 21' });
    writeFiles(work, { 'a.txt': changed, 'b.txt': lines(40, 'added', { 39: 'added needle 39' }) });
    const oid = commitAll(work, 'second');
    const [diff] = await readCommitDiffs(join(work, '.git'), [oid], 1, { timeoutMs: 60_000, maxBytes: 1 << 24 });
    const files = { old: (path: string) => git(work, 'show', `${oid}^:${path}`).split('\n'), now: (path: string) => git(work, 'show', `${oid}:${path}`).split('\n') };
    let windows = 0;
    for (const file of diff!.files) {
      for (const hunk of file.hunks) {
        const hits = hunk.lines.filter((l) => l.kind !== ' ' && l.text.includes('needle')).map((line) => ({ line, ranges: [[line.text.indexOf('needle'), line.text.indexOf('needle') + 6] as const] }));
        if (hits.length === 0) continue;
        const hit: HunkHit = { oldPath: file.oldPath, newPath: file.newPath, hunk, hits };
        const cut = matchWindows(hit, 2);
        windows += cut.length;
        assert.deepEqual(cut.flatMap((c) => c.hits.map((h) => h.line)), hits.map((h) => h.line), 'every matched line once, in order');
        assert.ok(cut.reduce((n, c) => n + c.hunk.lines.length, 0) <= hits.length * 5, 'at most two lines on each side of a match');
        for (const part of cut) {
          for (const h of part.hits) assert.ok(part.hunk.lines.includes(h.line));
          if (file.oldPath !== null) agrees(part.hunk, '+', files.old(file.oldPath));
          if (file.newPath !== null) agrees(part.hunk, '-', files.now(file.newPath));
        }
      }
    }
    assert.equal(windows, 3, 'the two nearby matches share a window; the far one and the new file have their own');
  } finally {
    removeDir(root);
  }
});

test('a hunk whose every line is near a match is left whole', () => {
  const line = (kind: '+' | '-' | ' ', oldLine: number | null, newLine: number | null) => ({ kind, text: `x${oldLine}${newLine}`, oldLine, newLine });
  const lines = [line(' ', 4, 4), line('-', 5, null), line('+', null, 5), line(' ', 6, 6)];
  const hunk: DiffHunk = { oldRange: { startLine: 4, lines: 3 }, newRange: { startLine: 4, lines: 3 }, section: '', lines, oldNoNewlineAtEnd: false, newNoNewlineAtEnd: false };
  const hit: HunkHit = { oldPath: 'a', newPath: 'a', hunk, hits: [{ line: lines[2]!, ranges: [[0, 1]] }] };
  assert.deepEqual(matchWindows(hit, 2), [hit]);
});

/** The side's lines (all but `skip`'s) are numbered from the range's start, as many as it counts, and read as the file does there. */
function agrees(hunk: DiffHunk, skip: '+' | '-', file: readonly string[]): void {
  const side = hunk.lines.filter((l) => l.kind !== skip);
  const range = skip === '+' ? hunk.oldRange : hunk.newRange;
  assert.equal(side.length, range.lines);
  side.forEach((l, i) => {
    const number = skip === '+' ? l.oldLine : l.newLine;
    assert.equal(number, range.startLine + i);
    assert.equal(l.text, file[number! - 1]);
  });
}
