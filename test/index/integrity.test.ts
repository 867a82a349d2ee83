/**
 * Damaged segments on disk (truncated, overwritten, unsealed) are refused with INDEX_CORRUPT naming
 * the segment, never its path, and marked so later readers and the indexer know; random damage
 * anywhere in the files never crashes a reader and never yields a wrong answer.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { CONTENT_FILE, DAMAGED_FILE, META_FILE, SEAL_FILE } from '../../src/index/format.js';
import { openSegmentReader, type SegmentReader } from '../../src/index/lmdb/segment-reader.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { seededRandom } from '../helpers/random.js';
import { tri, writeSegment } from './segment-fixture.js';

const FILES: Record<string, string> = {};
for (let i = 0; i < 120; i++) FILES[`dir${i % 5}/file${i}.txt`] = `line ${i} ${'word'.repeat((i * 37) % 1500)} marker${i}\n`;
FILES['big/unique_path_marker.txt'] = `${'0123456789abcdef'.repeat(400)} big_content_marker\n`;
const PROBES = ['lin', 'wor', 'mar', 'e 1', 'big', 'ker'].map(tri);

/** Everything a search reads from a segment, as one string. */
function readAll(reader: SegmentReader): string {
  const out: string[] = [];
  for (let doc = 0; doc < reader.docCount; doc++) out.push(reader.path(doc), Buffer.from(reader.content(doc)).toString('base64'));
  for (const probe of PROBES) out.push([...(reader.postings(probe, 0, reader.docCount) ?? [])].join(','));
  return out.join('\n');
}

function expectDamaged(dir: string, reason: RegExp): void {
  const check = (err: unknown): boolean => {
    assert.ok(isQuarryError(err, 'INDEX_CORRUPT'), String(err));
    assert.match(err.message, reason);
    assert.ok(!err.message.includes(dir), `the message names the path: ${err.message}`);
    assert.match(err.message, /^index segment seg is damaged: /);
    return true;
  };
  assert.throws(() => openSegmentReader(dir), check);
  assert.ok(existsSync(join(dir, DAMAGED_FILE)), 'the segment is marked damaged');
  // Every later reader refuses it for the same reason, without looking further.
  assert.throws(() => openSegmentReader(dir), check);
}

describe('segment integrity', () => {
  let root = '';
  let pristine = '';
  let expected = '';
  let trial = 0;
  before(async () => {
    root = makeTempDir('quarry-integrity');
    pristine = join(root, 'pristine');
    await writeSegment(pristine, FILES);
    const reader = openSegmentReader(pristine);
    expected = readAll(reader);
    await reader.close();
  });
  after(() => removeDir(root));

  /** A fresh copy of the segment, named `seg` in its own directory. */
  const copy = (): string => {
    const dir = join(root, `t${trial++}`, 'seg');
    cpSync(pristine, dir, { recursive: true });
    return dir;
  };
  const overwrite = (path: string, at: number, bytes: Buffer): void => {
    const data = readFileSync(path);
    bytes.copy(data, at);
    writeFileSync(path, data);
  };

  for (const file of [CONTENT_FILE, META_FILE]) {
    it(`refuses a truncated ${file} before mapping it (mapped, it would fault the process)`, () => {
      const dir = copy();
      truncateSync(join(dir, file), Math.floor(readFileSync(join(dir, file)).length / 2));
      expectDamaged(dir, new RegExp(`${file.replace('.', '\\.')} is \\d+ bytes, sealed at \\d+ \\(truncated\\)`));
    });
  }

  it('refuses a segment without its seal, or with a seal that is not JSON', () => {
    const unsealed = copy();
    rmSync(join(unsealed, SEAL_FILE));
    expectDamaged(unsealed, /seal\.json is missing/);
    const garbled = copy();
    writeFileSync(join(garbled, SEAL_FILE), '{"formatVersion":');
    expectDamaged(garbled, /seal\.json is not valid JSON/);
  });

  it('refuses an overwritten path at open', () => {
    const dir = copy();
    const meta = readFileSync(join(dir, META_FILE));
    overwrite(join(dir, META_FILE), meta.indexOf('unique_path_marker'), Buffer.from('UNIQUE'));
    expectDamaged(dir, /fails? (its|their) checksum/);
  });

  it('finds overwritten content at its first read; the other files still read', async () => {
    const dir = copy();
    const content = readFileSync(join(dir, CONTENT_FILE));
    overwrite(join(dir, CONTENT_FILE), content.indexOf('big_content_marker'), Buffer.from('BIG'));
    const reader = openSegmentReader(dir);
    const damagedDoc = Object.keys(FILES).indexOf('big/unique_path_marker.txt');
    assert.equal(Buffer.from(reader.content(0)).toString(), FILES[reader.path(0)]);
    assert.throws(() => reader.content(damagedDoc), (err: unknown) => isQuarryError(err, 'INDEX_CORRUPT') && err.message.startsWith(`index segment seg is damaged: content of doc ${damagedDoc} fails its checksum`));
    await reader.close();
    expectDamaged(dir, new RegExp(`content of doc ${damagedDoc} fails its checksum`));
  });

  it('never crashes and never answers wrong, whatever bytes are overwritten where', async () => {
    const random = seededRandom(12);
    const outcomes = { refused: 0, unchanged: 0 };
    for (let i = 0; i < 160; i++) {
      const dir = copy();
      const file = join(dir, i % 2 === 0 ? CONTENT_FILE : META_FILE);
      const size = readFileSync(file).length;
      const length = 1 + Math.floor(random() * 16);
      overwrite(file, Math.floor(random() * (size - length)), Buffer.from(Array.from({ length }, () => Math.floor(random() * 256))));
      let answer: string | null = null;
      try {
        const reader = openSegmentReader(dir);
        try {
          answer = readAll(reader);
        } finally {
          await reader.close();
        }
      } catch (err) {
        assert.ok(isQuarryError(err, 'INDEX_CORRUPT'), `trial ${i}: ${String(err)}`);
        assert.ok(!err.message.includes(root), err.message);
      }
      if (answer === null) outcomes.refused++;
      else {
        assert.equal(answer, expected, `trial ${i} answered differently without noticing`);
        outcomes.unchanged++;
      }
      rmSync(dir, { recursive: true, force: true });
    }
    // Most of both files is data a reader checks; padding and free space may take damage unseen.
    assert.ok(outcomes.refused > 80, JSON.stringify(outcomes));
  });
});
