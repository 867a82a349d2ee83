/**
 * The catalog on a real LMDB file, seen through a writer and a second handle as another process
 * would: list() follows every put and remove (once lmdb-js renews its read snapshot), and hands
 * back the same decoded manifest while its stored bytes are unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { openCatalog, type Catalog } from '../../../src/index/lmdb/catalog.js';
import type { Manifest } from '../../../src/index/manifest.js';
import { makeTempDir, removeDir } from '../../git/fixtures.js';

let data = '';
let writer: Catalog;
let reader: Catalog;

function manifest(repo: string, commit: string): Manifest {
  return {
    formatVersion: 7, repo, repoId: repo.length, commit, branch: 'main', indexedAt: '2026-11-24T00:00:00.000Z',
    fork: false, archived: false, segments: [{ id: `${repo.length}-1`, docCount: 3, deleted: [] }], skipped: [], files: 3, bytes: 30,
  };
}

/** lmdb-js renews a handle's read snapshot on a timer after its first read, not within one turn. */
const names = async (c: Catalog): Promise<string[]> => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return c.list().map((m) => `${m.repo}@${m.commit}`);
};

before(() => {
  data = makeTempDir('quarry-catalog');
  writer = openCatalog(data);
  reader = openCatalog(data);
});

after(async () => {
  await reader.close();
  await writer.close();
  removeDir(data);
});

it('lists what another handle put, changed and removed', async () => {
  assert.deepEqual(await names(reader), []);
  await writer.put(manifest('a/one', 'c1'));
  await writer.put(manifest('b/two', 'c1'));
  assert.deepEqual(await names(reader), ['a/one@c1', 'b/two@c1']);
  await writer.put(manifest('a/one', 'c2'));
  assert.deepEqual(await names(reader), ['a/one@c2', 'b/two@c1']);
  assert.equal(reader.get('a/one')?.commit, 'c2');
  await writer.remove('b/two');
  assert.deepEqual(await names(reader), ['a/one@c2']);
  assert.equal(reader.get('b/two'), undefined);
  await writer.put(manifest('b/two', 'c3'));
  assert.deepEqual(await names(reader), ['a/one@c2', 'b/two@c3']);
});

it('decodes a manifest again only when its stored bytes change', async () => {
  await writer.put(manifest('c/three', 'c1'));
  const first = reader.list().find((m) => m.repo === 'c/three');
  assert.ok(first);
  assert.equal(reader.list().find((m) => m.repo === 'c/three'), first);
  assert.equal(reader.get('c/three'), first);
  await writer.put(manifest('c/three', 'c2'));
  await new Promise((resolve) => setTimeout(resolve, 1));
  const second = reader.list().find((m) => m.repo === 'c/three');
  assert.notEqual(second, first);
  assert.equal(second?.commit, 'c2');
});
