import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { createBlobReader } from '../../src/git/blobs.js';
import { commitAll, git, initRepo, makeTempDir, removeDir, writeFiles } from './fixtures.js';

const FILE_COUNT = 500;

function failsWith(reason?: string): (err: unknown) => boolean {
  return (err) => isQuarryError(err, 'GIT_FAILED') && (reason === undefined || err.details['reason'] === reason);
}

describe('createBlobReader', () => {
  let root = '';
  let gitDir = '';
  const contents = new Map<string, Buffer>();
  let large: { oid: string; content: Buffer };
  let treeOid = '';

  before(() => {
    root = makeTempDir();
    const repo = initRepo(join(root, 'repo'));
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < FILE_COUNT; i++) {
      // Varied sizes, including empty and chunk-boundary-crossing ones, and binary bytes.
      files[`f/${i}.bin`] = Buffer.concat([Buffer.from(`file ${i}\n`), randomBytes((i * 977) % 70_000)]);
    }
    files['empty'] = Buffer.alloc(0);
    const largeContent = randomBytes(5 * 1024 * 1024 + 3);
    files['large.bin'] = largeContent;
    writeFiles(repo, files);
    const commit = commitAll(repo, 'blobs');
    gitDir = join(repo, '.git');
    const listing = git(repo, 'ls-tree', '-r', commit).split('\n');
    for (const line of listing) {
      const [meta = '', path = ''] = line.split('\t');
      const oid = meta.split(' ')[2] ?? '';
      const content = files[path];
      if (content !== undefined) contents.set(oid, content);
    }
    large = { oid: git(repo, 'rev-parse', `${commit}:large.bin`), content: largeContent };
    treeOid = git(repo, 'rev-parse', `${commit}^{tree}`);
  });
  after(() => removeDir(root));

  it(`answers ${FILE_COUNT} concurrent reads with exact content`, async () => {
    const reader = createBlobReader(gitDir);
    try {
      const oids = [...contents.keys()];
      const results = await Promise.all(oids.map((oid) => reader.read(oid)));
      assert.equal(results.length, contents.size);
      results.forEach((content, i) => assert.ok(content.equals(contents.get(oids[i] ?? '') ?? Buffer.alloc(1)), `blob ${i}`));
    } finally {
      await reader.close();
    }
  });

  it('reads a blob much larger than a pipe chunk', async () => {
    const reader = createBlobReader(gitDir);
    try {
      const content = await reader.read(large.oid);
      assert.equal(content.length, large.content.length);
      assert.ok(content.equals(large.content));
    } finally {
      await reader.close();
    }
  });

  it('refuses missing objects, non-blobs and oversized blobs, and stays in step afterwards', async () => {
    const reader = createBlobReader(gitDir, { maxBytes: 1024 * 1024 });
    try {
      const [small] = contents.keys();
      const reads = [
        reader.read('0'.repeat(40)),
        reader.read(treeOid),
        reader.read(large.oid),
        reader.read(large.oid, { maxBytes: 10 * 1024 * 1024 }),
        reader.read(small ?? ''),
      ];
      const [missing, tree, tooLarge, allowed, after] = await Promise.allSettled(reads);
      assert.ok(missing?.status === 'rejected' && failsWith('missing')(missing.reason));
      assert.ok(tree?.status === 'rejected' && failsWith('not-blob')(tree.reason));
      assert.ok(tooLarge?.status === 'rejected' && failsWith('too-large')(tooLarge.reason));
      assert.ok(allowed?.status === 'fulfilled' && allowed.value.equals(large.content));
      assert.ok(after?.status === 'fulfilled' && after.value.equals(contents.get(small ?? '') ?? Buffer.alloc(1)));
    } finally {
      await reader.close();
    }
  });

  it('rejects malformed ids without sending them to git', async () => {
    const reader = createBlobReader(gitDir);
    try {
      await assert.rejects(reader.read('HEAD'), /invalid object id/);
      await assert.rejects(reader.read(`${'a'.repeat(40)}\n${'b'.repeat(40)}`), /invalid object id/);
      const [oid, content] = [...contents.entries()][1] ?? ['', Buffer.alloc(0)];
      assert.ok((await reader.read(oid.toUpperCase())).equals(content), 'upper-case hex is accepted');
    } finally {
      await reader.close();
    }
  });

  it('rejects pending reads on close, and every read after it', async () => {
    const reader = createBlobReader(gitDir);
    const pending = [...contents.keys()].map((oid) => reader.read(oid));
    pending.push(reader.read(large.oid));
    const outcomes = Promise.allSettled(pending);
    await reader.close();
    const settled = await outcomes;
    const rejected = settled.filter((s) => s.status === 'rejected');
    assert.ok(rejected.length > 0, 'close came before git answered everything');
    for (const r of rejected) assert.ok(failsWith()(r.reason));
    await assert.rejects(reader.read(large.oid), /closed/);
  });

  it('rejects pending reads when git dies, and starts a new git for the next read', async () => {
    const late = join(root, 'late.git');
    const reader = createBlobReader(late);
    try {
      const doomed = await Promise.allSettled([reader.read(large.oid), reader.read(large.oid)]);
      for (const read of doomed) assert.ok(read.status === 'rejected' && failsWith()(read.reason));
      git(root, 'clone', '--quiet', '--bare', join(root, 'repo'), late);
      assert.ok((await reader.read(large.oid)).equals(large.content));
    } finally {
      await reader.close();
    }
  });
});
