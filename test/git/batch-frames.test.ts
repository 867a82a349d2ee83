import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchFrameParser, type BatchFrame } from '../../src/git/batch-frames.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

function stream(): Buffer {
  return Buffer.concat([
    Buffer.from(`${A} blob 5\nhello\n`),
    Buffer.from(`${B} missing\n`),
    Buffer.from(`${C} blob 0\n\n`),
    Buffer.from(`${A} blob 3\n\n\n\n\n`),
    Buffer.from(`${B} tree 4\nxxxx\n`),
  ]);
}

function parse(chunks: Buffer[], wants: (type: string, size: number) => boolean = () => true): BatchFrame[] {
  const frames: BatchFrame[] = [];
  const parser = new BatchFrameParser({ wants, frame: (f) => frames.push(f) });
  for (const chunk of chunks) parser.push(chunk);
  return frames;
}

function summary(frames: BatchFrame[]): [string, string, number, string | null][] {
  return frames.map((f) => [f.oid, f.type, f.size, f.content === null ? null : f.content.toString('latin1')]);
}

const EXPECTED: [string, string, number, string | null][] = [
  [A, 'blob', 5, 'hello'],
  [B, 'missing', 0, null],
  [C, 'blob', 0, ''],
  [A, 'blob', 3, '\n\n\n'],
  [B, 'tree', 4, 'xxxx'],
];

describe('BatchFrameParser', () => {
  it('parses several frames from one chunk', () => {
    assert.deepEqual(summary(parse([stream()])), EXPECTED);
  });

  it('gives the same frames however the stream is split', () => {
    const bytes = stream();
    for (const size of [1, 2, 3, 7, 41, 42, 43, 64]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      assert.deepEqual(summary(parse(chunks)), EXPECTED, `chunks of ${size}`);
    }
  });

  it('skips declined content without losing its place', () => {
    const frames = parse([stream()], (type, size) => type === 'blob' && size < 5);
    assert.deepEqual(
      summary(frames).map(([, type, size, content]) => [type, size, content]),
      [['blob', 5, null], ['missing', 0, null], ['blob', 0, ''], ['blob', 3, '\n\n\n'], ['tree', 4, null]],
    );
  });

  it('copies content out of the chunks it came in', () => {
    const chunk = Buffer.from(`${A} blob 5\nhello\n`);
    const [frame] = parse([chunk]);
    chunk.fill(0);
    assert.equal(frame?.content?.toString('latin1'), 'hello');
  });

  it('throws on a header it does not understand, or a frame without its newline', () => {
    assert.throws(() => parse([Buffer.from('garbage\n')]), /unexpected header/);
    assert.throws(() => parse([Buffer.from(`${A} blob x\n`)]), /unexpected header/);
    assert.throws(() => parse([Buffer.from(`${A} blob 2\nabc`)]), /framing broken/);
  });
});
