/**
 * Differential test against git grep: on a generated repository with awkward content, every
 * regex and literal search returns exactly the (path, line) set git grep finds, with both
 * matcher engines (auto = Hyperscan, falling back to JS only where it must), case-sensitive and not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { commitAll, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { gitGrepRows } from '../git/git-grep.js';
import { buildCorpus, CORPUS_MAX_FILE_SIZE, largeFiles } from './corpus.js';
import { addAndIndex, createEngineFixture, matchedLines, type EngineFixture } from './engine-fixture.js';

const REGEXES = ['foo.*bar', '\\bfoo\\b', '[A-Z]{3,}_[A-Z]+', '^#include', ';$', '(alpha|GAMMA)[[:blank:]]+[a-z_]+', 'h.llo', 'x1|y2', '0x[0-9A-F]+', 'fo+B', 'needle_at_end$', '日本', '[0-9]{2}', 'return[[:blank:]]"', '^$', 'caf'];
const LITERALS = ['foo', 'FooBar', 'héllo', '"str"', '->', '==', 'err_code', 'delta_epsilon foo', '/*', 'needle', 'wörld'];

let source = '';
let fixture: EngineFixture;

function gitGrep(pattern: string, fixed: boolean, ignoreCase: boolean): string[] {
  return gitGrepRows(source, [...(ignoreCase ? ['-i'] : []), fixed ? '-F' : '-P', '-e', pattern, 'HEAD', '--', '.', ':(exclude)big/huge.txt']);
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

before(async () => {
  source = makeTempDir('quarry-corpus');
  buildCorpus(source);
  writeFiles(source, largeFiles());
  commitAll(source, 'large files');
  fixture = await createEngineFixture({ maxFileSize: CORPUS_MAX_FILE_SIZE });
  await addAndIndex(fixture, 'example.com/corpus', source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

for (const matcher of ['auto', 'js'] as const) {
  describe(`${matcher} engine`, () => {
    for (const ignoreCase of [false, true]) {
      for (const regex of REGEXES) {
        test(`regex /${regex}/ ${ignoreCase ? 'case-insensitive' : 'case:yes'}`, async () => {
          const query = `type:file count:all ${ignoreCase ? '' : 'case:yes '}patterntype:regexp ${regex}`;
          const response = await fixture.engine.search.search({ query, matcher });
          assert.deepEqual(matchedLines(response), gitGrep(regex, false, ignoreCase));
          assert.equal(response.limitHit, false);
          // Hyperscan cannot take empty-matching patterns; auto hands those to the JS engine.
          assert.deepEqual(response.stats.matchers, [matcher === 'js' || regex === '^$' ? 'js' : 'hyperscan']);
        });
      }
      for (const literal of LITERALS) {
        test(`literal ${quote(literal)} ${ignoreCase ? 'case-insensitive' : 'case:yes'}`, async () => {
          const query = `type:file count:all ${ignoreCase ? '' : 'case:yes '}${quote(literal)}`;
          const response = await fixture.engine.search.search({ query, matcher });
          assert.deepEqual(matchedLines(response), gitGrep(literal, true, ignoreCase));
          assert.deepEqual(response.stats.matchers, [matcher === 'js' ? 'js' : 'hyperscan']);
        });
      }
    }
  });
}

test('block maps rule out a large file holding a literal\'s trigrams only apart, and miss nothing', async () => {
  const response = await fixture.engine.search.search({ query: 'type:file count:all case:yes needle' });
  assert.deepEqual(matchedLines(response), gitGrep('needle', true, false));
  assert.ok(matchedLines(response).some((row) => row.startsWith('large/straddling.txt:')), 'the needle across a block boundary is found');
  assert.ok(response.stats.docsRuledOutByBlocks >= 1, `ruled out ${response.stats.docsRuledOutByBlocks}`);
});

