/**
 * The worker's match over stored records (diff-record-scan.ts) against the full parse: for every
 * commit of a history with renames, an evil merge, binary files, a very large diff and Latin-1
 * lines, and of commits with many files and hunks each (matches in late hunks, the expression's
 * other atoms in other files, the text only in context lines or paths), the hits it answers (metadata, hunks, lines, ranges) equal those found by parsing the
 * whole stored diff and matching every changed line, for plain text (whose records and hunks are
 * passed over when they cannot match), regexes and type:diff expressions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { matchCommitDiffs } from '../../src/history/diff-batch-match.js';
import { parseCommitRecord } from '../../src/history/diff-git.js';
import { searchedKinds } from '../../src/history/diff-lines.js';
import { compileDiffPattern, type DiffPattern } from '../../src/history/diff-match.js';
import type { CommitDiff, CommitHit } from '../../src/history/diff-model.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openHistoryIndexes, type HistoryIndex, type HistoryIndexes } from '../../src/index/history/history-store.js';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { parseQuery } from '../../src/query/parse.js';
import { compileDiffTerms } from '../../src/search/diff-terms.js';
import { BINARY_CONTENT, commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { RARE_WORDS, writeHistory } from './history-fixture.js';

let root: string;
let pool: EnginePool;
let indexes: HistoryIndexes;
/** The generated history's index, and the many-hunk commits' index. */
let generated: HistoryIndex;
let hunky: HistoryIndex;

/** Commits that change several files in several hunks each; the repository's git directory. */
function writeHunkyHistory(dir: string): string {
  initRepo(dir);
  const numbered = (name: string, n: number, edits: Record<number, string> = {}): string => Array.from({ length: n }, (_, i) => edits[i] ?? `${name} line ${i}`).join('\n') + '\n';
  writeFiles(dir, { 'a.txt': numbered('a', 80), 'b.txt': numbered('b', 80), 'delta-notes.txt': 'notes\n', 'c.bin': BINARY_CONTENT });
  commitAll(dir, 'start');
  writeFiles(dir, { 'a.txt': numbered('a', 80, { 5: 'alpha one', 50: 'delta two' }), 'b.txt': numbered('b', 80, { 10: 'zephyrine three', 45: 'delta four', 70: 'b line 70 delta' }) });
  commitAll(dir, 'late hunks, and the other atom in another file');
  writeFiles(dir, { 'a.txt': numbered('a', 80, { 5: 'alpha one', 51: 'a line 51 edited' }), 'delta-notes.txt': 'notes\nmore\n', 'c.bin': Buffer.concat([BINARY_CONTENT, Buffer.from('delta')]) });
  commitAll(dir, 'delta only in context lines, a path and a binary file');
  writeFiles(dir, { 'b.txt': numbered('b', 80, { 2: 'DELTA upper', 79: 'zephyrine last' }) });
  commitAll(dir, 'first and last hunks');
  return join(dir, '.git');
}

before(async () => {
  root = makeTempDir('quarry-diff-records');
  const gitDir = join(root, 'repo.git');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', gitDir);
  writeHistory(gitDir, 150);
  pool = createEnginePool({ threads: 2 });
  indexes = openHistoryIndexes(join(root, 'data'));
  generated = indexes.of(1);
  await updateHistoryIndex(generated, gitDir, pool);
  hunky = indexes.of(2);
  await updateHistoryIndex(hunky, writeHunkyHistory(join(root, 'hunky')), pool);
});

after(async () => {
  await indexes.close();
  await pool.close();
  removeDir(root);
});

const deadline = (): number => Date.now() + 120_000;

/** Every stored commit through the worker's 'diff-records' task, in batches as a search sends them. */
async function fromRecords(index: HistoryIndex, pattern: DiffPattern, searched: number): Promise<(CommitHit | null)[]> {
  const ordinals = Array.from({ length: index.nextOrdinal() }, (_, i) => i);
  const out: (CommitHit | null)[] = [];
  for (let at = 0; at < ordinals.length; at += 20) {
    const stored = ordinals.slice(at, at + 20).map((o) => index.deflatedRecord(o)!);
    const ends = new Uint32Array(stored.length);
    let bytes = 0;
    stored.forEach((r, i) => (ends[i] = bytes += r.length));
    const records = new Uint8Array(bytes);
    stored.forEach((r, i) => records.set(r, i === 0 ? 0 : ends[i - 1]!));
    out.push(...(await pool.submit('diff-records', { records, ends, pattern, searched, deadline: deadline() })).hits);
  }
  return out;
}

/** The same commits parsed whole and every changed line matched ('diff-lines'). */
async function fromFullParse(index: HistoryIndex, pattern: DiffPattern, added: boolean, removed: boolean): Promise<(CommitHit | null)[]> {
  const diffs = parsedOf(index);
  const hunks = await matchCommitDiffs(pool, diffs, { pattern, added, removed, deadline: deadline() });
  return diffs.map(({ files: _files, ...commit }, i) => (hunks[i]!.length === 0 ? null : { commit, hunks: hunks[i]! }));
}

const parsed = new Map<HistoryIndex, CommitDiff[]>();

function parsedOf(index: HistoryIndex): CommitDiff[] {
  let diffs = parsed.get(index);
  if (diffs === undefined) parsed.set(index, (diffs = Array.from({ length: index.nextOrdinal() }, (_, o) => parseCommitRecord(index.record(o)!))));
  return diffs;
}

const SIDES: [boolean, boolean][] = [[false, false], [true, false], [false, true]];
/** Patterns also searched in added lines only and in removed lines only (the large diff makes each search slow). */
const ONE_SIDE = ['delta', 'e', 'caf.'];

test('plain text and regexes: the stored records\' hits equal the full parse\'s, hunk for hunk', async () => {
  const patterns: [string, boolean][] = [
    ...RARE_WORDS.map((w): [string, boolean] => [w, false]),
    ['delta', false], ['e', false], ['haystackneedle', false], ['latinword', false], ['renamedline', false], ['binaryword', false],
    ['caf.', true], ['hay.*needle', true], ['^\\s*delta', true], ['zeph(yr|xx)ine', true],
  ];
  let hits = 0;
  for (const [text, regex] of patterns) {
    const pattern = compileDiffPattern(text, { regex, caseSensitive: false });
    for (const [added, removed] of ONE_SIDE.includes(text) ? SIDES : SIDES.slice(0, 1)) {
      for (const index of [generated, hunky]) {
        const expected = await fromFullParse(index, pattern, added, removed);
        assert.deepEqual(await fromRecords(index, pattern, searchedKinds(added, removed)), expected, `${text} (added ${added}, removed ${removed})`);
        hits += expected.filter((h) => h !== null).length;
      }
    }
  }
  assert.ok(hits > 100, `the patterns match in many commits (${hits})`);
  // The many-hunk commits, oldest first: delta's hits are in late hunks of two files, in a removed
  // line beside a path and a binary file that name it, in the first and later hunks of one file.
  const delta = await fromRecords(hunky, compileDiffPattern('delta', { regex: false, caseSensitive: false }), searchedKinds(false, false));
  const where = (hit: CommitHit | null) => hit?.hunks.map((h) => `${h.newPath}:${h.hits.map((l) => l.line.newLine ?? -l.line.oldLine!).join(',')}`) ?? null;
  assert.deepEqual(delta.map(where), [null, ['a.txt:51', 'b.txt:46', 'b.txt:71'], ['a.txt:-51'], ['b.txt:3', 'b.txt:-46', 'b.txt:-71']]);
});

test('type:diff expressions (AND, OR, NOT over atoms): the stored records\' hits equal the full parse\'s', async () => {
  for (const query of ['delta zephyrine', 'delta OR quokkaling', 'delta NOT zephyrine', 'alpha NOT zephyrine', 'e NOT haystackneedle', '/caf./ latinword']) {
    const pattern = compileDiffTerms(parseQuery(`type:diff ${query}`).basics[0]!.pattern, { caseSensitive: false });
    for (const index of [generated, hunky]) {
      assert.deepEqual(await fromRecords(index, pattern, searchedKinds(false, false)), await fromFullParse(index, pattern, false, false), query);
    }
  }
});
