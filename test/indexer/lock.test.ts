/**
 * The index lock against real processes: a dead owner, a zombie owner, a pid reused by another
 * process and a lock file from before start times were recorded are taken over; a live owner is
 * not; and of many processes racing for one stale lock exactly one wins.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isQuarryError } from '../../src/errors.js';
import { acquireIndexLock } from '../../src/indexer/lock.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';

const LOCK_MODULE = fileURLToPath(new URL('../../src/indexer/lock.js', import.meta.url));

function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { state: fields[0]!, startTime: fields[19]! };
  } catch {
    return null;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A child that never reaps its own child: the forked child exits at once and stays a zombie. (A
 * shell's `sleep 0 &` could be reaped by the shell itself when it exits before the shell's exec.)
 */
const NEVER_REAPS = 'import os, time\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)\n';

async function zombie(): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn('python3', ['-c', NEVER_REAPS], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  await until(() => procStat(pid)?.state === 'Z', `pid ${pid} to become a zombie`);
  return { pid, parent };
}

function assertBusy(path: string): void {
  assert.throws(() => acquireIndexLock(path), (err: unknown) => isQuarryError(err, 'INDEX_BUSY'));
}

describe('index lock', { skip: procStat(process.pid) === null ? 'needs /proc' : false }, () => {
  let dir = '';
  let lock = '';
  before(() => {
    dir = makeTempDir('quarry-lock');
    lock = join(dir, '7.lock');
  });
  after(() => removeDir(dir));

  it('is exclusive while held, released by its holder, and records pid and start time', () => {
    const held = acquireIndexLock(lock);
    const owner = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number; startTime: string };
    assert.equal(owner.pid, process.pid);
    assert.equal(owner.startTime, procStat(process.pid)?.startTime);
    assertBusy(lock);
    held.release();
    acquireIndexLock(lock).release();
    assert.deepEqual(readdirSync(dir), []);
  });

  it('takes over a lock whose owner exited', () => {
    const exited = spawnSync('sh', ['-c', 'echo $$']);
    const pid = Number(exited.stdout.toString().trim());
    writeFileSync(lock, JSON.stringify({ pid, startTime: '1', nonce: 'x' }));
    acquireIndexLock(lock).release();
  });

  it('takes over a lock held by a zombie, in the new and the old (bare pid) format', async () => {
    const { pid, parent } = await zombie();
    try {
      writeFileSync(lock, JSON.stringify({ pid, startTime: procStat(pid)!.startTime, nonce: 'x' }));
      acquireIndexLock(lock).release();
      writeFileSync(lock, String(pid));
      acquireIndexLock(lock).release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over a lock whose pid now belongs to another process, not one its owner still holds', async () => {
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await until(() => procStat(other.pid!) !== null, 'sleep to start');
      const { startTime } = procStat(other.pid!)!;
      writeFileSync(lock, JSON.stringify({ pid: other.pid, startTime, nonce: 'x' }));
      assertBusy(lock);
      writeFileSync(lock, JSON.stringify({ pid: other.pid, startTime: String(Number(startTime) - 1), nonce: 'x' }));
      acquireIndexLock(lock).release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over an unreadable lock and clears what killed runs left beside it', () => {
    writeFileSync(lock, '{"pid":');
    writeFileSync(`${lock}.999-abcd.tmp`, '{}');
    writeFileSync(`${lock}.999-abcd.stale`, '{}');
    writeFileSync(join(dir, '8.lock.1-x.tmp'), '{}');
    const held = acquireIndexLock(lock);
    assert.deepEqual(readdirSync(dir).sort(), ['7.lock', '8.lock.1-x.tmp']);
    held.release();
  });

  it('lets exactly one of many processes racing for a stale lock win', async () => {
    const { pid, parent } = await zombie();
    const racers = 6;
    const go = join(dir, 'go');
    const done = join(dir, 'done');
    try {
      writeFileSync(lock, String(pid));
      // Every racer loads first, then all try at once; the winner holds the lock until all have tried.
      const script = `
        const { existsSync } = await import('node:fs');
        const { acquireIndexLock } = await import(${JSON.stringify(LOCK_MODULE)});
        const wait = async (path) => { while (!existsSync(path)) await new Promise((r) => setTimeout(r, 2)); };
        console.log('ready');
        await wait(${JSON.stringify(go)});
        try { const held = acquireIndexLock(${JSON.stringify(lock)}); console.log('won'); await wait(${JSON.stringify(done)}); held.release(); }
        catch (err) { console.log(err.code); }`;
      const children = Array.from({ length: racers }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        const lines: string[] = [];
        child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter((l) => l !== '')));
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        return { lines, exited };
      });
      await until(() => children.every((c) => c.lines.includes('ready')), 'every racer to load');
      writeFileSync(go, '');
      await until(() => children.every((c) => c.lines.length === 2), 'every racer to try');
      writeFileSync(done, '');
      await Promise.all(children.map((c) => c.exited));
      const outcomes = children.map((c) => c.lines[1]);
      assert.equal(outcomes.filter((o) => o === 'won').length, 1, outcomes.join(', '));
      assert.equal(outcomes.filter((o) => o === 'INDEX_BUSY').length, racers - 1, outcomes.join(', '));
    } finally {
      parent.kill('SIGKILL');
      rmSync(go, { force: true });
      rmSync(done, { force: true });
    }
  });
});
