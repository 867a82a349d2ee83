import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addRepository, mirrorDir, type RepoContext, type SyncResult } from '../../src/repos/registry.js';
import { startSyncSchedule } from '../../src/repos/scheduler.js';
import { openStore } from '../../src/store/open.js';
import { getRepo } from '../../src/store/repos.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

describe('sync schedule', () => {
  let root = '';
  let ctx: RepoContext;
  let healthy = '';
  let broken = '';
  before(async () => {
    root = makeTempDir();
    const dataDir = join(root, 'data');
    ctx = { dataDir, store: openStore(dataDir) };
    healthy = initRepo(join(root, 'healthy'));
    commitAll(healthy, 'one');
    broken = initRepo(join(root, 'broken'));
    commitAll(broken, 'one');
    await addRepository(ctx, 'a/broken', broken);
    await addRepository(ctx, 'b/healthy', healthy);
    renameSync(broken, `${broken}-gone`);
  });
  after(async () => {
    await ctx.store.close();
    removeDir(root);
  });

  it('fetches every repository in turn, records failures and keeps going', async () => {
    writeFiles(healthy, { 'two.txt': 'two\n' });
    const pushed = commitAll(healthy, 'two');
    const synced: SyncResult[] = [];
    const failed: string[] = [];
    let resolveSynced: () => void = () => undefined;
    const healthySynced = new Promise<void>((resolve) => (resolveSynced = resolve));
    const stop = startSyncSchedule(ctx, {
      intervalMs: 60_000,
      onSynced: (result) => {
        synced.push(result);
        if (result.repo.name === 'b/healthy') resolveSynced();
      },
      onError: (name) => failed.push(name),
    });
    await healthySynced;
    await stop();

    assert.deepEqual(failed, ['a/broken']);
    assert.match(getRepo(ctx.store, 'a/broken')?.lastFetchError ?? '', /git fetch failed/);
    assert.equal(synced.length, 1);
    assert.equal(synced[0]?.changed, true);
    const repo = getRepo(ctx.store, 'b/healthy');
    assert.ok(repo !== undefined);
    assert.equal(git(mirrorDir(ctx, repo), 'rev-parse', 'main'), pushed);
  });

  it('runs again after the interval, and stops for good', async () => {
    let passes = 0;
    let resolveTwice: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (resolveTwice = resolve));
    const stop = startSyncSchedule(ctx, {
      intervalMs: 20,
      onSynced: () => {
        passes++;
        if (passes === 2) resolveTwice();
      },
    });
    await twice;
    await stop();
    const stoppedAt = passes;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(passes, stoppedAt);
  });

  it('keeps only the repositories `includes` admits, asked again each pass (a search node: those it owns)', async () => {
    const seen: string[] = [];
    const asked: string[] = [];
    let admit = 'a/broken';
    let passes = 0;
    let resolveTwice: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (resolveTwice = resolve));
    const stop = startSyncSchedule(ctx, {
      intervalMs: 20,
      includes: (name) => {
        asked.push(name);
        return name === admit;
      },
      onSynced: (result) => {
        seen.push(result.repo.name);
        passes++;
        if (passes === 1) admit = 'b/healthy';
        if (passes === 2) resolveTwice();
      },
      onError: (name) => {
        seen.push(`failed ${name}`);
        admit = 'b/healthy';
      },
    });
    await twice;
    await stop();
    assert.deepEqual(seen.slice(0, 3), ['failed a/broken', 'b/healthy', 'b/healthy'], 'the broken repository was tried only while admitted');
    assert.ok(asked.includes('a/broken') && asked.includes('b/healthy'));
  });
});
