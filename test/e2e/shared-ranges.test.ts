/**
 * Differential test against git grep for a segment split into ranges whose tasks share candidates
 * (src/shard/range-share.ts), through the real worker pool (2 threads) over a real LMDB index: the
 * matches cluster in one directory, so the other range's task is done first and helps verify them.
 * Every matched line equals git grep's, and no match is reported twice.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FileMatch } from '../../src/model/result.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { gitGrepRows } from '../git/git-grep.js';
import { addAndIndex, createEngineFixture, matchedLines, type EngineFixture } from './engine-fixture.js';

/** Two ranges of 2,048 documents or more (src/search/tasks.ts) with 2 threads. */
const FILLER = 4_000;
const CLUSTERED = 120;

let source = '';
let fixture: EngineFixture;

function clusteredFile(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 300; l++) {
    lines.push(l % 3 === 0 ? `int ext4_${'abc_'.repeat(l % 7)}inode(void); ext4_é_inode ext4_read_inodeext4_write_inode // ${i}` : `static int unrelated_${l};`);
  }
  return `${lines.join('\n')}\n`;
}

function gitGrep(pattern: string): string[] {
  return gitGrepRows(source, ['-P', '-e', pattern, 'HEAD']);
}

before(async () => {
  source = makeTempDir('quarry-shared-ranges');
  initRepo(source);
  const files: Record<string, string> = {};
  for (let i = 0; i < FILLER; i++) files[`arch/f${i}.c`] = `static int filler_${i};\n`;
  for (let i = 0; i < CLUSTERED; i++) files[`fs/ext4/e${i}.c`] = clusteredFile(i);
  writeFiles(source, files);
  commitAll(source, 'corpus');
  fixture = await createEngineFixture({ threads: 2 });
  await addAndIndex(fixture, 'example.com/shared', source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

for (const pattern of ['ext4_[a-zé_]+_inode', 'static int', 'filler_3999;|ext4_é']) {
  test(`/${pattern}/ over two shared ranges equals git grep, each match once`, async () => {
    for (let round = 0; round < 5; round++) {
      const response = await fixture.engine.search.search({ query: `type:file count:all case:yes patterntype:regexp ${pattern}` });
      assert.equal(response.stats.shardsSearched, 2, 'the segment was searched as two ranges');
      assert.deepEqual(matchedLines(response), gitGrep(pattern));
      const expected = new RegExp(pattern, 'gu');
      for (const m of response.matches as FileMatch[]) {
        for (const line of m.lineMatches) {
          const starts = line.offsetAndLengths.map(([offset]) => offset);
          assert.equal(new Set(starts).size, starts.length, `${m.path}:${line.lineNumber} reports a match twice`);
          assert.equal(starts.length, [...line.line.matchAll(expected)].length, `${m.path}:${line.lineNumber}`);
        }
      }
    }
  });
}
