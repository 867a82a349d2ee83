import assert from 'node:assert/strict';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import {
  addRepository,
  gitDirOf,
  listRepositories,
  mirrorDir,
  removeRepository,
  syncRepository,
  type RepoContext,
} from '../../src/repos/registry.js';
import { openStore } from '../../src/store/open.js';
import { getRepo } from '../../src/store/repos.js';
import { commitAll, createSampleRepo, git, makeTempDir, removeDir, writeFiles, type SampleRepo } from '../git/fixtures.js';

describe('repository registry', () => {
  let root = '';
  let sample: SampleRepo;
  let ctx: RepoContext;
  before(() => {
    root = makeTempDir();
    sample = createSampleRepo(join(root, 'source'));
    const dataDir = join(root, 'data');
    ctx = { dataDir, store: openStore(dataDir) };
  });
  after(async () => {
    await ctx.store.close();
    removeDir(root);
  });

  const mirrors = (): string[] => readdirSync(join(ctx.dataDir, 'mirrors')).sort();
  const staging = (): string[] => readdirSync(join(ctx.dataDir, 'tmp'));

  it('adds a repository: a complete bare mirror, then the record', async () => {
    const repo = await addRepository(ctx, 'github.com/org/sample', sample.dir);
    assert.equal(repo.name, 'github.com/org/sample');
    assert.equal(repo.source, sample.dir);
    assert.equal(repo.mirrorPath, `mirrors/${repo.id}.git`);
    assert.equal(repo.defaultBranch, 'main');
    assert.equal(repo.lastFetchedAt, repo.addedAt);
    assert.equal(repo.lastFetchError, undefined);
    assert.deepEqual([repo.fork, repo.archived], [false, false]);
    assert.equal(git(mirrorDir(ctx, repo), 'rev-parse', 'main'), sample.second);
    assert.deepEqual(listRepositories(ctx), [repo]);
    assert.deepEqual(staging(), []);
  });

  it('refuses a duplicate name and leaves the registry and mirrors alone', async () => {
    const before = listRepositories(ctx);
    const mirrorsBefore = mirrors();
    await assert.rejects(addRepository(ctx, 'github.com/org/sample', sample.dir), (err: unknown) => isQuarryError(err, 'REPO_EXISTS'));
    assert.deepEqual(listRepositories(ctx), before);
    assert.deepEqual(mirrors(), mirrorsBefore);
  });

  it('refuses bad names and sources without leaving anything behind', async () => {
    const before = listRepositories(ctx);
    const mirrorsBefore = mirrors();
    const attempts: [string, string, string][] = [
      ['bad//name', sample.dir, 'USAGE'],
      ['x/missing', join(root, 'missing'), 'REPO_SOURCE_INVALID'],
      ['x/plain', ctx.dataDir, 'REPO_SOURCE_INVALID'],
      ['x/unreachable', 'http://127.0.0.1:9/x.git', 'REPO_SOURCE_INVALID'],
    ];
    for (const [name, source, code] of attempts) {
      await assert.rejects(addRepository(ctx, name, source), (err: unknown) => isQuarryError(err) && err.code === code, name);
    }
    assert.deepEqual(listRepositories(ctx), before);
    assert.deepEqual(mirrors(), mirrorsBefore);
    assert.deepEqual(staging(), []);
  });

  it('lets exactly one of two racing additions of a name win', async () => {
    const results = await Promise.allSettled([
      addRepository(ctx, 'race/repo', sample.dir),
      addRepository(ctx, 'race/repo', sample.dir),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.ok(lost[0]?.status === 'rejected' && isQuarryError(lost[0].reason, 'REPO_EXISTS'));
    const winner = getRepo(ctx.store, 'race/repo');
    assert.ok(winner !== undefined);
    const first = getRepo(ctx.store, 'github.com/org/sample')!;
    assert.deepEqual(mirrors(), [`${first.id}.git`, `${winner.id}.git`].sort());
    await removeRepository(ctx, 'race/repo');
  });

  it('removes the record, then the mirror; ids are never reused', async () => {
    const added = await addRepository(ctx, 'short/lived', sample.dir);
    const dir = mirrorDir(ctx, added);
    const removed = await removeRepository(ctx, 'short/lived');
    assert.deepEqual(removed, added);
    assert.equal(getRepo(ctx.store, 'short/lived'), undefined);
    assert.equal(existsSync(dir), false);
    await assert.rejects(removeRepository(ctx, 'short/lived'), (err: unknown) => isQuarryError(err, 'REPO_NOT_FOUND'));
    const next = await addRepository(ctx, 'short/lived', sample.dir);
    assert.notEqual(next.id, added.id);
    await removeRepository(ctx, 'short/lived');
  });

  it('syncs: records the fetch, reports whether refs changed, and records failures', async () => {
    const name = 'github.com/org/sample';
    const first = await syncRepository(ctx, name);
    assert.equal(first.changed, false);

    writeFiles(sample.dir, { 'synced.txt': 'synced\n' });
    const commit = commitAll(sample.dir, 'synced');
    const second = await syncRepository(ctx, name);
    assert.equal(second.changed, true);
    assert.equal(git(mirrorDir(ctx, second.repo), 'rev-parse', 'main'), commit);
    assert.ok((second.repo.lastFetchedAt ?? '') >= (first.repo.lastFetchedAt ?? ''));

    const hidden = `${sample.dir}-hidden`;
    renameSync(sample.dir, hidden);
    try {
      await assert.rejects(syncRepository(ctx, name), (err: unknown) => isQuarryError(err, 'GIT_FAILED'));
      const failed = getRepo(ctx.store, name);
      assert.match(failed?.lastFetchError ?? '', /git fetch failed/);
      assert.equal(failed?.lastFetchedAt, second.repo.lastFetchedAt);
    } finally {
      renameSync(hidden, sample.dir);
    }
    const recovered = await syncRepository(ctx, name);
    assert.equal(recovered.repo.lastFetchError, undefined);
    assert.equal('lastFetchError' in recovered.repo, false);
  });

  it('resolves a registered name to its mirror, and any other name to REPO_NOT_FOUND naming it', () => {
    const name = 'github.com/org/sample';
    const dir = gitDirOf(ctx, name);
    assert.equal(dir, mirrorDir(ctx, getRepo(ctx.store, name)!));
    assert.equal(git(dir, 'rev-parse', '--is-bare-repository'), 'true');
    assert.throws(() => gitDirOf(ctx, 'github.com/org/none'), (err: unknown) => isQuarryError(err, 'REPO_NOT_FOUND') && err.message === 'no such repository: github.com/org/none');
  });

  it('never resolves a mirror path outside the mirrors directory', () => {
    const repo = getRepo(ctx.store, 'github.com/org/sample');
    assert.ok(repo !== undefined);
    for (const mirrorPath of ['../store', '/etc', 'mirrors', 'mirrors/../../x']) {
      assert.throws(() => mirrorDir(ctx, { ...repo, mirrorPath }), (err: unknown) => isQuarryError(err, 'INTERNAL'), mirrorPath);
    }
  });
});
