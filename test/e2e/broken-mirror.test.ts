/**
 * Broken mirrors, for real: a deleted mirror and one with corrupted objects are cloned again from
 * their sources; a mirror that is not a git repository, whose source is gone too, fails alone with
 * its reason listed while the other repositories keep syncing, indexing and answering, its old
 * index serving; the server's sync retries it and it recovers once its source is back.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { quarry, search, until } from './cli-process.js';
import { startServerProcess } from './server-process.js';

const NAMES = ['deleted', 'corrupt', 'orphaned', 'healthy'] as const;
type Kind = (typeof NAMES)[number];

interface Listed { readonly name: string; readonly mirrorPath: string; readonly status: string }

describe('broken mirrors', () => {
  let root = '';
  let data = '';
  const sources = new Map<Kind, string>();
  const name = (kind: Kind): string => `example.com/${kind}`;
  const commit = (kind: Kind, label: string): void => {
    writeFiles(sources.get(kind)!, { [`${label}.txt`]: `${kind}_${label}_marker\n` });
    commitAll(sources.get(kind)!, label);
  };
  const listed = (): Map<string, Listed> => {
    const r = quarry(data, ['repos', 'list', '--json']);
    assert.equal(r.status, 0, r.stderr);
    return new Map((JSON.parse(r.stdout) as Listed[]).map((l) => [l.name, l]));
  };
  const mirror = (kind: Kind): string => join(data, listed().get(name(kind))!.mirrorPath);
  const found = (kind: Kind, label: string): boolean => search(data, `${kind}_${label}_marker`).paths.includes(`${label}.txt`);

  before(() => {
    root = makeTempDir('quarry-broken-mirror');
    data = join(root, 'data');
    for (const kind of NAMES) {
      sources.set(kind, initRepo(join(root, kind)));
      commit(kind, 'first');
      assert.equal(quarry(data, ['repos', 'add', name(kind), sources.get(kind)!]).status, 0);
    }
    assert.equal(quarry(data, ['index']).status, 0);
  });
  after(() => removeDir(root));

  it('index: missing and corrupted mirrors are cloned again; a plain directory whose source is gone fails alone, with its reason', () => {
    rmSync(mirror('deleted'), { recursive: true, force: true });
    // Loose objects replaced by garbage (new files: a local clone hard-links its source's objects).
    const objects = join(mirror('corrupt'), 'objects');
    for (const dir of readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
      for (const file of readdirSync(join(objects, dir))) {
        const path = join(objects, dir, file);
        rmSync(path);
        writeFileSync(path, Buffer.from('not a git object'));
      }
    }
    const orphaned = mirror('orphaned');
    rmSync(orphaned, { recursive: true, force: true });
    mkdirSync(orphaned);
    writeFileSync(join(orphaned, 'README'), 'not a repository\n');
    renameSync(sources.get('orphaned')!, `${sources.get('orphaned')!}-away`);
    for (const kind of ['deleted', 'corrupt', 'healthy'] as const) commit(kind, 'second');

    const run = quarry(data, ['index']);
    assert.equal(run.status, 1);
    // stderr also carries each phase's progress lines (progress-display.ts); the errors are the lines naming quarry.
    assert.deepEqual(run.stderr.trim().split('\n').filter((line) => line.startsWith('quarry: ')), [`quarry: ${name('orphaned')}: the mirror is missing or not a git repository, and cloning it again failed: git clone failed: fatal: repository '${sources.get('orphaned')}' does not exist`]);
    for (const kind of ['deleted', 'corrupt', 'healthy'] as const) {
      assert.match(run.stdout, new RegExp(`^${name(kind).replace('.', '\\.')}: incremental index`, 'm'));
      assert.ok(found(kind, 'second'), `${kind} serves its new commit`);
    }
    assert.ok(found('orphaned', 'first'), 'the failed repository keeps its old index');

    const statuses = listed();
    assert.match(statuses.get(name('orphaned'))!.status, /^failed: fetch failed: the mirror is missing or not a git repository, and cloning it again failed: /);
    for (const kind of ['deleted', 'corrupt', 'healthy'] as const) assert.equal(statuses.get(name(kind))!.status, 'ok', kind);
    assert.ok(statSync(join(mirror('deleted'), 'HEAD')).isFile());
  });

  it('the server keeps the others syncing while one fails, and recovers it once its source is back', async () => {
    const server = await startServerProcess(data, [], { ...process.env, QUARRY_SYNC_INTERVAL_MS: '300' });
    try {
      commit('healthy', 'third');
      await until(() => found('healthy', 'third'), 'the healthy repository to be synced and indexed', 30_000);
      await until(() => /sync: example\.com\/orphaned: the mirror is missing or not a git repository/.test(server.output()), 'the failure to be logged', 30_000);
      assert.match(listed().get(name('orphaned'))!.status, /^failed: fetch failed: /);

      renameSync(`${sources.get('orphaned')!}-away`, sources.get('orphaned')!);
      commit('orphaned', 'second');
      await until(() => listed().get(name('orphaned'))!.status === 'ok' && found('orphaned', 'second'), 'the repository to recover', 30_000);
    } finally {
      assert.equal(await server.stop(), 0, server.output());
    }
  });
});
