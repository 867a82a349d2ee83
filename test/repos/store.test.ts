import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { openStore } from '../../src/store/open.js';
import type { RepoRecord, Store } from '../../src/store/records.js';
import { addRepo, getRepo, listRepos, removeRepo, reserveRepoId, updateRepo } from '../../src/store/repos.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';

function record(store: Store, name: string): RepoRecord {
  return {
    id: reserveRepoId(store),
    name,
    source: `/src/${name}`,
    mirrorPath: `mirrors/${name}.git`,
    addedAt: '2024-01-01T00:00:00.000Z',
    lastFetchedAt: null,
    defaultBranch: 'main',
    fork: false,
    archived: false,
  };
}

describe('repository records in the store', () => {
  let root = '';
  let store: Store;
  before(() => {
    root = makeTempDir();
    store = openStore(join(root, 'data'));
  });
  after(async () => {
    await store.close();
    removeDir(root);
  });

  it('adds, reads, lists by name, updates and removes records', () => {
    const b = addRepo(store, record(store, 'b/repo'));
    const a = addRepo(store, record(store, 'a/repo'));
    assert.notEqual(a.id, b.id);
    assert.deepEqual(getRepo(store, 'b/repo'), b);
    assert.deepEqual(listRepos(store).map((r) => r.name), ['a/repo', 'b/repo']);

    const failed = updateRepo(store, 'a/repo', { lastFetchError: 'boom', id: 99 } as Partial<RepoRecord>);
    assert.equal(failed?.lastFetchError, 'boom');
    assert.equal(failed?.id, a.id, 'ids cannot be changed');
    const cleared = updateRepo(store, 'a/repo', { lastFetchError: undefined, lastFetchedAt: '2024-02-02T00:00:00.000Z' });
    assert.equal('lastFetchError' in (cleared ?? {}), false);
    assert.equal(getRepo(store, 'a/repo')?.lastFetchedAt, '2024-02-02T00:00:00.000Z');
    assert.equal(updateRepo(store, 'nope', { archived: true }), undefined);

    assert.deepEqual(removeRepo(store, 'b/repo'), b);
    assert.equal(removeRepo(store, 'b/repo'), undefined);
    assert.deepEqual(listRepos(store).map((r) => r.name), ['a/repo']);
  });

  it('refuses a second record with the same name and keeps the first', () => {
    const first = addRepo(store, record(store, 'dup/repo'));
    assert.throws(() => addRepo(store, { ...record(store, 'dup/repo'), source: '/other' }), (err: unknown) => isQuarryError(err, 'REPO_EXISTS'));
    assert.deepEqual(getRepo(store, 'dup/repo'), first);
  });

  it('shows committed records to another process', () => {
    addRepo(store, record(store, 'seen/elsewhere'));
    const openUrl = new URL('../../src/store/open.js', import.meta.url).href;
    const reposUrl = new URL('../../src/store/repos.js', import.meta.url).href;
    const script = `
      const { openStore } = await import(${JSON.stringify(openUrl)});
      const { listRepos } = await import(${JSON.stringify(reposUrl)});
      const store = openStore(process.argv[1]);
      console.log(listRepos(store).map((r) => r.name).join(','));
      await store.close();`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, join(root, 'data')], { encoding: 'utf8' });
    assert.deepEqual(out.trim().split(','), listRepos(store).map((r) => r.name));
    assert.ok(out.includes('seen/elsewhere'));
  });
});
