import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as Addon from '../../native/hyperscan/index.js';
import { HyperscanStatus } from '../../src/matcher/hyperscan-status.js';
import { MAX_TEST_PATTERNS } from '../../src/matcher/matcher.js';
import { settledDatabases } from './live-databases.js';

function addonEntry(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const entry = join(dir, 'native', 'hyperscan', 'index.js');
    if (existsSync(entry)) return entry;
  }
  throw new Error('native/hyperscan/index.js not found above the test');
}

const entry = addonEntry();
const hs = createRequire(import.meta.url)(entry) as typeof Addon;
const bytes = (text: string) => new TextEncoder().encode(text);

function compile(expressions: string[], caseless: number[] = expressions.map(() => 0)): Addon.Database {
  const result = hs.compile(expressions, Uint8Array.from(caseless));
  if ('status' in result) assert.fail(`compile failed: ${result.message}`);
  return result;
}

function scanAll(db: Addon.Database, hay: Uint8Array, utf8 = true): number[] {
  const out = new Int32Array(3 * 64);
  const count = db.scan(hay, utf8, out);
  assert.ok(count >= 0, `scan returned status ${count}`);
  return [...out.subarray(0, count * 3)];
}

describe('hyperscan addon', () => {
  it('reports its version and has a no-op call', () => {
    assert.match(hs.version(), /^5\.4\./);
    assert.equal(hs.noop(), undefined);
  });

  it('exports the status codes the TypeScript mirror names', () => {
    assert.deepEqual({ ...hs.status }, HyperscanStatus);
  });

  it('returns compile errors as data naming the pattern', () => {
    assert.deepEqual(hs.compile(['abc', '(a)\\1'], new Uint8Array(2)), {
      status: HyperscanStatus.COMPILE_FAILED,
      index: 1,
      message: 'Back-references are unsupported.',
    });
    const syntax = hs.compile(['a('], new Uint8Array(1));
    assert.ok('status' in syntax && syntax.index === 0 && /parenthesis/.test(syntax.message), JSON.stringify(syntax));
    const empty = hs.compile(['x', 'y*'], new Uint8Array(2));
    assert.ok('status' in empty && empty.status === HyperscanStatus.EMPTY_MATCH && empty.index === 1, JSON.stringify(empty));
    assert.throws(() => hs.compile([], new Uint8Array(0)), RangeError);
  });

  it('tells the bytes of its databases, lazily compiled forms included once they exist', () => {
    const db = compile(['alpha|beta|gamma[0-9]+']);
    const compiled = db.bytes;
    assert.ok(compiled > 0 && Number.isInteger(compiled), `${compiled}`);
    assert.ok(db.test(Buffer.from('beta'), true) >= 0);
    const withTest = db.bytes;
    assert.ok(withTest > compiled, `${withTest} after test(), ${compiled} before`);
    assert.ok(db.scan(Buffer.from([0x62, 0x65, 0x74, 0x61, 0xff]), false, new Int32Array(30)) >= 0);
    assert.ok(db.bytes > withTest, `${db.bytes} after a byte-mode scan, ${withTest} before`);
  });

  it('makes databases only through compile()', () => {
    assert.throws(() => new (hs.Database as unknown as new () => unknown)(), /made by compile/);
    assert.equal(compile(['a', 'b', 'c']).patternCount, 3);
  });

  it('writes triples ordered by start and touches nothing past them', () => {
    const out = new Int32Array(12).fill(777);
    assert.equal(compile(['b', 'a+'], [1, 0]).scan(bytes('aaB'), true, out), 2);
    assert.deepEqual([...out], [1, 0, 2, 0, 2, 3, 777, 777, 777, 777, 777, 777]);
  });

  it('rejects wrongly typed arrays instead of misreading them', () => {
    const db = compile(['a']);
    const misuse = db as unknown as { scan(hay: unknown, utf8: boolean, out: unknown): number };
    assert.throws(() => misuse.scan(bytes('a'), true, new Uint8Array(30)), TypeError);
    assert.throws(() => misuse.scan(new Int32Array(3), true, new Int32Array(3)), TypeError);
    assert.throws(() => misuse.scan('a', true, new Int32Array(3)), TypeError);
    assert.throws(() => hs.takeResults(new Float64Array(3) as unknown as Int32Array), TypeError);
    assert.throws(() => hs.compile(['a'], new Int8Array(1) as unknown as Uint8Array), TypeError);
  });

  it('retains results that do not fit and hands them over without a rescan', () => {
    const db = compile(['x']);
    const small = new Int32Array(3).fill(-9);
    assert.equal(db.scan(bytes('x x x x x'), true, small), HyperscanStatus.RESULTS_RETAINED);
    assert.equal(hs.takeResults(small), 5);
    assert.deepEqual([...small], [-9, -9, -9]);
    const grown = new Int32Array(15);
    assert.equal(hs.takeResults(grown), 5);
    assert.deepEqual([...grown], [0, 0, 1, 0, 2, 3, 0, 4, 5, 0, 6, 7, 0, 8, 9]);
  });

  it('marks patterns whose extents need the reference engine', () => {
    const out = new Int32Array(30);
    assert.equal(compile(['ab|bcd|d', 'c']).scan(bytes('abcd'), true, out), HyperscanStatus.RESULTS_RETAINED);
    assert.equal(hs.takeResults(out), 2);
    assert.deepEqual([...out.subarray(0, 6)], [0, -1, -1, 1, 2, 3]);
  });

  it('stops with TOO_MANY_REPORTS past the report cap', () => {
    const hay = new Uint8Array(hs.maxReports + 1).fill(0x61);
    assert.equal(compile(['a']).scan(hay, true, new Int32Array(3)), HyperscanStatus.TOO_MANY_REPORTS);
    assert.deepEqual(scanAll(compile(['b']), bytes('ab')), [0, 1, 2]);
  });

  it('compiles a byte-mode database for non-UTF-8 hay, or says it cannot', () => {
    const hay = Uint8Array.from([0xff, 0x61, 0xfe, 0x62]);
    assert.deepEqual(scanAll(compile(['a.b']), hay, false), [0, 1, 4]);
    assert.equal(compile(['\\x{1F600}']).scan(hay, false, new Int32Array(3)), HyperscanStatus.BYTE_MODE_UNAVAILABLE);
  });

  it('tests which patterns occur, as a bitmask, in UTF-8 and byte mode', () => {
    const db = compile(['a', 'b+', 'c.c'], [0, 1, 0]);
    assert.equal(db.test(bytes('cBBa'), true), 0b011);
    assert.equal(db.test(bytes('c\nc cxc'), true), 0b100);
    assert.equal(db.test(new Uint8Array(0), true), 0);
    assert.equal(db.test(Uint8Array.from([0x63, 0xff, 0x63, 0x61]), false), 0b101);
    assert.equal(compile(['\\x{1F600}']).test(bytes('x'), false), HyperscanStatus.BYTE_MODE_UNAVAILABLE);
    assert.throws(() => (db as unknown as { test(hay: unknown, utf8: boolean): number }).test('a', true), TypeError);
  });

  it('tests sets of up to maxTestPatterns patterns and refuses larger ones', () => {
    assert.equal(hs.maxTestPatterns, MAX_TEST_PATTERNS);
    const tags = (count: number) => Array.from({ length: count }, (_, i) => `<${i}>`);
    assert.equal(compile(tags(hs.maxTestPatterns)).test(bytes('<30><1>'), true), (1 << 30) | 2);
    assert.equal(compile(tags(hs.maxTestPatterns + 1)).test(bytes('<1>'), true), HyperscanStatus.TOO_MANY_PATTERNS);
  });

  it('leaves the retained results of the last scan alone when testing', () => {
    const db = compile(['x']);
    assert.equal(db.scan(bytes('x x'), true, new Int32Array(3)), HyperscanStatus.RESULTS_RETAINED);
    assert.equal(db.test(bytes('y'), true), 0);
    const out = new Int32Array(6);
    assert.equal(hs.takeResults(out), 2);
    assert.deepEqual([...out], [0, 0, 1, 0, 2, 3]);
  });

  it('gives line number, start and end for ascending offsets', () => {
    const hay = bytes('ab\ncd\r\n\nxyz');
    const offsets = Int32Array.from([0, 2, 2, 3, 6, 7, 8, 11]);
    const out = new Int32Array(offsets.length * 3 + 3).fill(-9);
    assert.equal(hs.lineSpans(hay, offsets, offsets.length, out), offsets.length);
    assert.deepEqual([...out], [0, 0, 2, 0, 0, 2, 0, 0, 2, 1, 3, 6, 1, 3, 6, 2, 7, 7, 3, 8, 11, 3, 8, 11, -9, -9, -9]);
    assert.equal(hs.lineSpans(new Uint8Array(0), Int32Array.from([0, 0]), 2, out), 2);
    assert.deepEqual([...out.subarray(0, 6)], [0, 0, 0, 0, 0, 0]);
    assert.equal(hs.lineSpans(hay, offsets, 0, new Int32Array(0)), 0);
  });

  it('refuses bad lineSpans input with a status or an exception', () => {
    const hay = bytes('a\nb');
    const out = new Int32Array(6);
    assert.equal(hs.lineSpans(hay, Int32Array.from([2, 1]), 2, out), HyperscanStatus.OFFSETS_INVALID);
    assert.equal(hs.lineSpans(hay, Int32Array.from([-1]), 1, out), HyperscanStatus.OFFSETS_INVALID);
    assert.equal(hs.lineSpans(hay, Int32Array.from([4]), 1, out), HyperscanStatus.OFFSETS_INVALID);
    assert.equal(hs.lineSpans(hay, Int32Array.from([0, 1, 2]), 3, out), HyperscanStatus.OUT_TOO_SMALL);
    assert.throws(() => hs.lineSpans(hay, Int32Array.from([0]), 2, out), RangeError);
    assert.throws(() => hs.lineSpans(hay, Int32Array.from([0]), 0.5, out), RangeError);
    assert.throws(() => hs.lineSpans(hay, Uint32Array.from([0]) as unknown as Int32Array, 1, out), TypeError);
    assert.throws(() => hs.lineSpans(hay, Int32Array.from([0]), 1, new Uint32Array(3) as unknown as Int32Array), TypeError);
  });

  it('reuses one scratch across many scans of databases of different sizes', () => {
    const big = compile(Array.from({ length: 200 }, (_, i) => `w${i}[a-z]+\\d{2,4}`));
    const small = compile(['ab']);
    const hay = bytes('ab w17xyz123 ab w199q45');
    for (let i = 0; i < 2000; i++) {
      assert.deepEqual(scanAll(small, hay), [0, 0, 2, 0, 13, 15]);
      assert.deepEqual(scanAll(big, hay), [17, 3, 12, 199, 16, 23]);
    }
  });

  it('gives each worker thread its own scratch', async () => {
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const hs = require(workerData.entry);
      const db = hs.compile(['needle\\\\d+', 'hay'], new Uint8Array(2));
      const hay = Buffer.from('hay needle12 '.repeat(1000));
      const out = new Int32Array(6000);
      let total = 0;
      for (let i = 0; i < 200; i++) total += db.scan(hay, true, out);
      parentPort.postMessage(total);`;
    const run = () => new Promise<number>((resolve, reject) => {
      const worker = new Worker(source, { eval: true, workerData: { entry } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    assert.deepEqual(await Promise.all([run(), run(), run()]), [400_000, 400_000, 400_000]);
  });

  it('frees databases when the GC collects them', async () => {
    const settle = (): Promise<number> => settledDatabases(() => hs.liveDatabases());
    const before = await settle();
    let garbage: Addon.Database[] | null = Array.from({ length: 50 }, (_, i) => compile([`garbage${i}`]));
    assert.equal(hs.liveDatabases(), before + garbage.length);
    garbage = null;
    assert.equal(await settle(), before);
  });
});
