/**
 * Kill -9 during a history index build loses nothing: the batches committed before the kill stay,
 * the next run indexes only the commits still missing, and the result answers exactly as a clean
 * build does (same ordinals, same stored diffs, same postings, same diff search answers as git log -G).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileDiffPattern } from '../../src/history/diff-match.js';
import { createDiffHistory } from '../../src/history/diff-service.js';
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { postingKey, ADDED_LINE, REMOVED_LINE } from '../../src/index/history/diff-postings.js';
import { openHistoryIndexes } from '../../src/index/history/history-store.js';
import { packTrigram } from '../../src/model/trigram.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import { git, makeTempDir, removeDir } from '../git/fixtures.js';
import { logG, RARE_WORDS, writeHistory } from './history-fixture.js';

const CHILD = fileURLToPath(new URL('./history-index-child.js', import.meta.url));

test('a build killed with SIGKILL after its first batches resumes and equals a clean build', async () => {
  const root = makeTempDir('quarry-history-kill');
  const pool = createInThreadEnginePool();
  const gitDir = join(root, 'repo.git');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', gitDir);
  writeHistory(gitDir, 5000, 11);
  const total = Number(git(gitDir, 'rev-list', '--count', '--all'));
  const killedData = join(root, 'killed');
  const cleanData = join(root, 'clean');
  const killed = openHistoryIndexes(killedData);
  const clean = openHistoryIndexes(cleanData);
  try {
    const child = spawn(process.execPath, [CHILD, gitDir, killedData, '1'], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const index = killed.of(1);
    const deadline = Date.now() + 120_000;
    while (index.nextOrdinal() === 0 && Date.now() < deadline) await sleep(10);
    child.kill('SIGKILL');
    await exited;
    const kept = index.nextOrdinal();
    assert.ok(kept > 0 && kept < total, `the kill came after the first batch and before the end (${kept} of ${total} commits indexed)`);
    assert.equal(index.state(), undefined, 'the killed build never recorded its refs');

    const resumed = await updateHistoryIndex(index, gitDir, pool);
    assert.equal(resumed.added, total - kept, 'the next run reads only the commits still missing');
    const fresh = await updateHistoryIndex(clean.of(1), gitDir, pool);
    assert.equal(fresh.added, total);
    assert.equal(index.nextOrdinal(), clean.of(1).nextOrdinal());
    for (const oid of git(gitDir, 'rev-list', '--all').split('\n')) {
      const ordinal = index.ordinalOf(oid);
      assert.equal(ordinal, clean.of(1).ordinalOf(oid), oid);
      assert.equal(index.record(ordinal!), clean.of(1).record(ordinal!), `${oid}'s stored diff`);
    }
    for (const word of [...RARE_WORDS, 'alpha', 'charlie']) {
      const bytes = Buffer.from(word);
      for (let i = 0; i + 2 < bytes.length; i++) {
        for (const side of [ADDED_LINE, REMOVED_LINE] as const) {
          const key = postingKey(packTrigram(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!), side);
          assert.deepEqual(index.postings(key), clean.of(1).postings(key), `${word} @${i} side ${side}`);
        }
      }
      const pattern = compileDiffPattern(word, { regex: false, caseSensitive: false });
      const page = await createDiffHistory(() => gitDir, pool, () => index).searchDiffs(['repo'], {
        pattern, added: false, removed: false, metadata: null, after: null, before: null, revisions: [], count: 50, deadline: Date.now() + 60_000,
      });
      if (page.next === null) assert.deepEqual(page.hits.map((h) => h.hit.commit.oid), logG(gitDir, word), word);
    }
  } finally {
    await killed.close();
    await clean.close();
    await pool.close();
    removeDir(root);
  }
});
