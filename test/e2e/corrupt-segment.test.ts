/**
 * A segment damaged on disk (files truncated, bytes overwritten, seal deleted) makes searches
 * report that repository's shard as failed, a counted partial result while the other repository
 * answers; `quarry repos list` says why; the next `quarry index`, or the server's next sync,
 * rebuilds it. Real processes, real LMDB files damaged for real.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { quarry, search, segmentDirs, until } from './cli-process.js';
import { startServerProcess } from './server-process.js';

const DAMAGED = 'example.com/damaged';
const HEALTHY = 'example.com/healthy';
const QUERY = 'count:all shared_marker OR big_marker';
const COMPLETE = ['big.txt', 'healthy.txt', 'plain.txt', 'unique_path_name.txt'];

interface Listed { readonly name: string; readonly id: number; readonly status: string }

describe('damaged index segments', () => {
  let root = '';
  let data = '';
  before(() => {
    root = makeTempDir('quarry-corrupt');
    data = join(root, 'data');
    const damaged = initRepo(join(root, 'damaged'));
    writeFiles(damaged, {
      'plain.txt': 'shared_marker in the repository that gets damaged\n',
      'unique_path_name.txt': 'shared_marker\n',
      'big.txt': `${'0123456789abcdef'.repeat(500)} big_marker\n`,
    });
    commitAll(damaged, 'first');
    const healthy = initRepo(join(root, 'healthy'));
    writeFiles(healthy, { 'healthy.txt': 'shared_marker in the healthy repository\n' });
    commitAll(healthy, 'first');
    assert.equal(quarry(data, ['repos', 'add', DAMAGED, damaged]).status, 0);
    assert.equal(quarry(data, ['repos', 'add', HEALTHY, healthy]).status, 0);
    assert.equal(quarry(data, ['index']).status, 0);
  });
  after(() => removeDir(root));

  const listed = (): Map<string, Listed> => {
    const r = quarry(data, ['repos', 'list', '--json']);
    assert.equal(r.status, 0, r.stderr);
    return new Map((JSON.parse(r.stdout) as Listed[]).map((l) => [l.name, l]));
  };
  /** The damaged repository's live segment directory. */
  const segment = (): string => {
    const id = listed().get(DAMAGED)!.id;
    const dirs = segmentDirs(data).filter((d) => d.startsWith(`${id}-`));
    assert.equal(dirs.length, 1, dirs.join(', '));
    return join(data, 'index', 'segments', dirs[0]!);
  };
  const overwrite = (path: string, marker: string): void => {
    const bytes = readFileSync(path);
    const at = bytes.indexOf(marker);
    assert.ok(at >= 0, `${marker} not found in ${path}`);
    bytes.write('XX', at);
    writeFileSync(path, bytes);
  };

  const damages: [string, (dir: string) => void, RegExp][] = [
    ['content.mdb truncated', (dir) => truncateSync(join(dir, 'content.mdb'), 8192), /content\.mdb is 8192 bytes, sealed at \d+ \(truncated\)/],
    ['meta.mdb truncated', (dir) => truncateSync(join(dir, 'meta.mdb'), 8192), /meta\.mdb is 8192 bytes, sealed at \d+ \(truncated\)/],
    ['a file\'s bytes overwritten in content.mdb', (dir) => overwrite(join(dir, 'content.mdb'), 'big_marker'), /content of doc \d fails its checksum/],
    ['the path column overwritten in meta.mdb', (dir) => overwrite(join(dir, 'meta.mdb'), 'unique_path_name'), /fails? (its|their) checksum/],
    ['the seal deleted', (dir) => rmSync(join(dir, 'seal.json')), /seal\.json is missing/],
  ];
  for (const [label, damage, reason] of damages) {
    it(`${label}: a counted partial result naming the repository, the reason listed, rebuilt by the next index run`, () => {
      damage(segment());
      const partial = search(data, QUERY);
      assert.deepEqual(partial.paths.filter((p) => p === 'healthy.txt'), ['healthy.txt'], 'the healthy repository still answers');
      assert.ok(partial.shardsFailed >= 1, JSON.stringify(partial));
      assert.ok(partial.notices.some((n) => n.includes(DAMAGED)), partial.notices.join('; '));

      const statuses = listed();
      assert.match(statuses.get(DAMAGED)!.status, /^failed: index segment \S+ is damaged: /);
      assert.match(statuses.get(DAMAGED)!.status, reason);
      assert.equal(statuses.get(HEALTHY)!.status, 'ok');

      const rerun = quarry(data, ['index', '--no-fetch']);
      assert.equal(rerun.status, 0, rerun.stderr);
      assert.match(rerun.stdout, new RegExp(`${DAMAGED.replace('.', '\\.')}: rebuilt \\(segment \\S+ is damaged: `));
      assert.match(rerun.stdout, new RegExp(`${HEALTHY.replace('.', '\\.')}: up to date`));
      const complete = search(data, QUERY);
      assert.deepEqual([complete.paths, complete.shardsFailed], [COMPLETE, 0]);
      assert.equal(listed().get(DAMAGED)!.status, 'ok');
    });
  }

  it('the server keeps answering through a damaged segment and its sync rebuilds it', async () => {
    const server = await startServerProcess(data, [], { ...process.env, QUARRY_SYNC_INTERVAL_MS: '300' });
    const token = server.adminToken!;
    try {
      truncateSync(join(segment(), 'content.mdb'), 8192);
      const streamed = async (): Promise<string> => {
        const response = await fetch(`${server.url}/.api/search/stream?q=${encodeURIComponent(QUERY)}`, { headers: { Authorization: `token ${token}` } });
        assert.equal(response.status, 200);
        return response.text();
      };
      const first = await streamed();
      assert.match(first, /"path":"healthy\.txt"/);
      assert.match(first, /event: done/);
      // Partial (the damage reported) or, if a sync pass came first, already rebuilt.
      if (!/"path":"plain\.txt"/.test(first)) assert.match(first, new RegExp(`shard-failed.*${DAMAGED.replace('.', '\\.')}`));
      await until(() => /index: example\.com\/damaged: segment \S+ is damaged: content\.mdb is 8192 bytes/.test(server.output()), 'the sync to notice the damage', 20_000);
      await until(() => listed().get(DAMAGED)!.status === 'ok', 'the sync to rebuild the index', 20_000);
      const rebuilt = await streamed();
      for (const path of COMPLETE) assert.match(rebuilt, new RegExp(`"path":"${path.replace('.', '\\.')}"`));
      assert.doesNotMatch(rebuilt, /shard-failed/);
    } finally {
      assert.equal(await server.stop(), 0, server.output());
    }
  });
});
