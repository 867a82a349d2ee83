import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type * as Addon from '../../native/hyperscan/index.js';
import { HyperscanStatus } from '../../src/matcher/hyperscan-status.js';

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

  it('makes databases only through compile()', () => {
    assert.throws(() => new (hs.Database as unknown as new () => unknown)(), /made by compile/);
    assert.equal(compile(['a', 'b', 'c']).patternCount, 3);
  });

  it('writes triples ordered by start and touches nothing past them', () => {
    const out = new Int32Array(12).fill(777);
    assert.equal(compile(['b', 'a+'], [1, 0]).scan(bytes('aaB'), true, out), 2);
    assert.deepEqual([...out], [1, 0, 2, 0, 2, 3, 777, 777, 777, 777, 777, 777]);
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
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = hs.liveDatabases();
    let garbage: Addon.Database[] | null = Array.from({ length: 50 }, (_, i) => compile([`garbage${i}`]));
    assert.equal(hs.liveDatabases(), before + garbage.length);
    garbage = null;
    for (let round = 0; round < 20 && hs.liveDatabases() > before; round++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(hs.liveDatabases() <= before, `${hs.liveDatabases()} databases alive, ${before} before`);
  });
});
