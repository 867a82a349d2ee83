/**
 * Repository ids: random 31-bit positive integers that say nothing about one another, never
 * issued twice (across reopening, and above every id the old sequential counter handed out),
 * while records stored with the old small ids keep working.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { RepoRecord, Store } from '../../src/store/records.js';
import { addRepo, getRepo, reserveRepoId } from '../../src/store/repos.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';

const MAX_ID = 2 ** 31 - 1;

function record(id: number, name: string): RepoRecord {
  return { id, name, source: `/src/${name}`, mirrorPath: `mirrors/${id}.git`, addedAt: '2024-01-01T00:00:00.000Z', lastFetchedAt: null, defaultBranch: 'main', fork: false, archived: false };
}

describe('repository ids', () => {
  let root = '';
  before(() => {
    root = makeTempDir('quarry-repo-ids');
  });
  after(() => removeDir(root));

  it('are random 31-bit positive integers, unique, and never consecutive in a run of additions', async () => {
    const store = openStore(join(root, 'random'));
    try {
      const ids = Array.from({ length: 200 }, () => reserveRepoId(store));
      assert.equal(new Set(ids).size, ids.length);
      for (const id of ids) assert.ok(Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID, String(id));
      // Sequential ids differ by one; 199 random neighbours do so with a chance of about 2e-7.
      const neighbours = ids.slice(1).filter((id, i) => Math.abs(id - ids[i]!) === 1);
      assert.deepEqual(neighbours, []);
      // Half of all ids lie above 2^30: sequential ids would need a billion additions to get there.
      assert.ok(ids.some((id) => id > 2 ** 30));
    } finally {
      await store.close();
    }
  });

  it('are never issued twice, across reopening, nor below the old sequential counter', async () => {
    const dir = join(root, 'legacy');
    let store: Store = openStore(dir);
    // A store written by a version with sequential ids: two records and the counter past them,
    // here set so that only ten ids are left, which random draws alone would soon repeat.
    const lowest = MAX_ID - 9;
    addRepo(store, record(1, 'old/one'));
    addRepo(store, record(2, 'old/two'));
    store.meta.putSync('nextRepoId', lowest);
    const first = Array.from({ length: 6 }, () => reserveRepoId(store));
    await store.close();
    store = openStore(dir);
    try {
      const second = Array.from({ length: 4 }, () => reserveRepoId(store));
      const all = [...first, ...second];
      assert.equal(new Set(all).size, 10);
      for (const id of all) assert.ok(id >= lowest && id <= MAX_ID, String(id));
      assert.throws(() => reserveRepoId(store), /no free repository id is left/);
      assert.equal(getRepo(store, 'old/one')?.id, 1);
      assert.equal(getRepo(store, 'old/two')?.mirrorPath, 'mirrors/2.git');
    } finally {
      await store.close();
    }
  });
});
