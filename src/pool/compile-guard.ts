/**
 * The compile guard: before any thread of this process compiles a pattern set, a child process
 * compiles it (compile-guard-process.ts) within a time and memory budget and is killed past them.
 * Neither Hyperscan's compiler nor V8's RegExp compiler can be interrupted inside a thread: a
 * worker terminated at its deadline keeps compiling, and some patterns (`a?{n}a{n}`) take V8
 * exponential time. Verdicts are cached under the workers' own matcher-cache key (bounded by
 * entries and by the keys' length), so a repeated set costs a lookup and a refused one is refused at once. The budget is the child's CPU time, and the
 * child runs at a lower priority than the workers: a caller sending a new costly pattern each time
 * spends the spare CPU, not the searches' share, and waits its turn among callers (fair-dispatch.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createError, type QuarryError } from '../errors.js';
import { matcherCacheKey } from '../matcher/cache.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';
import type { GuardReply, GuardRequest } from './compile-guard-messages.js';
import { createFairDispatcher } from './fair-dispatch.js';
import { OwnerBudgets } from './owner-budgets.js';
import { barOwner, UNOWNED } from './work-owner.js';

export interface CompileGuardOptions {
  /** Compiling every form of one set must finish within this much CPU time. */
  readonly budgetMs: number;
  /** Resident memory a child process may reach while it compiles. */
  readonly memoryBytes: number;
  /** Child processes compiling side by side, so one costly set does not hold up the others. */
  readonly processes?: number;
  readonly cacheEntries?: number;
  /** Characters of cached verdicts' keys (the pattern sets); VERDICT_KEY_CHARS by default. */
  readonly cacheKeyChars?: number;
  /** Guard CPU one caller may spend per minute; OWNER_GUARD_MS_PER_MINUTE by default. */
  readonly ownerMsPerMinute?: number;
}

export interface CompileGuard {
  /**
   * Resolves when workers may compile the set; rejects with the error compiling it gives
   * (PATTERN_INVALID, PATTERN_UNSUPPORTED), and with PATTERN_UNSUPPORTED when it costs too much.
   * When `signal` aborts the caller stops waiting, with its reason: a check already running goes
   * on and is remembered, one still queued is dropped once no caller waits for it.
   */
  vet(patterns: readonly PatternSpec[], preference: EnginePreference, owner?: string, signal?: AbortSignal): Promise<void>;
  /** Verdicts remembered, and the characters of their keys. */
  readonly cached: { readonly entries: number; readonly keyChars: number };
  close(): Promise<void>;
}

/** `remember: false`: a refusal that says nothing about the set (the guard was busy or closing). */
type Verdict = { readonly ok: true; readonly remember?: false } | { readonly ok: false; readonly error: QuarryError; readonly remember?: false };

/** A check asked for and not yet answered, shared by the callers waiting for the same set. */
interface PendingCheck {
  readonly verdict: Promise<Verdict>;
  /** Aborted when the last waiting caller leaves: a check still queued then never runs. */
  readonly unwanted: AbortController;
  waiters: number;
}

const ENTRY = new URL('./compile-guard-process.js', import.meta.url);
const MEMORY_POLL_MS = 20;
const PAGE_BYTES = 4096;
/** /proc reports CPU time in USER_HZ ticks, 100 per second on Linux whatever the kernel's HZ. */
const MS_PER_TICK = 10;
/** The children's nice value: below the workers and the main thread, above nothing that matters. */
const CHILD_NICE = 10;
/**
 * Wall time a compile may take, as a multiple of the CPU budget, when a busy machine leaves the
 * low-priority child little CPU; past it the set is refused for now and not remembered.
 */
const WALL_FACTOR = 15;
/**
 * Compile-guard CPU one caller may spend per minute (a bucket that holds as much): ordinary
 * patterns check in milliseconds, so only a caller sending a new costly pattern each time meets it.
 * Work without a caller (the CLI, the indexer) is not limited.
 */
export const OWNER_GUARD_MS_PER_MINUTE = 4000;
/**
 * Verdicts are remembered by their sets' text: 4,096 of a hostile caller's long new patterns
 * (each a key of kilobytes) would otherwise hold tens of megabytes. About 8 MiB of keys.
 */
export const VERDICT_KEY_CHARS = 4 * 2 ** 20;

export function createCompileGuard(options: CompileGuardOptions): CompileGuard {
  const verdicts = new Map<string, Verdict>();
  const pending = new Map<string, PendingCheck>();
  const children = Array.from({ length: Math.max(1, options.processes ?? 1) }, () => new GuardChild(options));
  const turns = createFairDispatcher(children.length);
  const capacity = options.cacheEntries ?? 4096;
  const keyChars = options.cacheKeyChars ?? VERDICT_KEY_CHARS;
  let heldChars = 0;
  const budgets = new OwnerBudgets(options.ownerMsPerMinute ?? OWNER_GUARD_MS_PER_MINUTE);

  const remember = (key: string, verdict: Verdict): void => {
    if (verdict.remember === false || key.length > keyChars || verdicts.has(key)) return;
    verdicts.set(key, verdict);
    heldChars += key.length;
    for (const oldest of verdicts.keys()) {
      if (verdicts.size <= capacity && heldChars <= keyChars) break;
      verdicts.delete(oldest);
      heldChars -= oldest.length;
    }
  };

  const judge = (key: string, request: Omit<GuardRequest, 'id'>, owner: string): PendingCheck | Verdict => {
    const running = pending.get(key);
    if (running) return running;
    const waitMs = budgets.waitMs(owner);
    if (waitMs > 0) {
      barOwner(owner, waitMs);
      return spent(waitMs);
    }
    const unwanted = new AbortController();
    // The dispatcher never starts more jobs than there are children, so one is always idle here.
    const verdict = turns.run(owner, unwanted.signal, async () => {
      const child = children.find((c) => !c.busy)!;
      const judged = await child.run(request);
      budgets.charge(owner, child.lastCpuMs);
      return judged;
    }).then((judged) => {
      remember(key, judged);
      return judged;
    }, (): Verdict => ({ ok: false, error: createError('ABORTED', 'nobody waits for this check'), remember: false })).finally(() => {
      if (pending.get(key) === check) pending.delete(key);
    });
    const check: PendingCheck = { verdict, unwanted, waiters: 0 };
    pending.set(key, check);
    return check;
  };

  /** The check's verdict, or the signal's reason once it aborts (the check left to the others waiting, or dropped). */
  const waitFor = async (check: PendingCheck, signal: AbortSignal | undefined): Promise<Verdict> => {
    check.waiters++;
    // A caller without a signal never leaves, so the check is never dropped under it.
    if (signal === undefined) return check.verdict;
    let onAbort = (): void => undefined;
    const left = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([check.verdict, left]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (--check.waiters === 0 && signal.aborted) check.unwanted.abort();
    }
  };

  return {
    get cached() {
      return { entries: verdicts.size, keyChars: heldChars };
    },
    async vet(patterns, preference, owner, signal) {
      if (patterns.length === 0) return;
      const key = matcherCacheKey(patterns, preference);
      let verdict = verdicts.get(key);
      if (verdict) {
        verdicts.delete(key);
        verdicts.set(key, verdict);
      } else {
        const judged = judge(key, { patterns, preference }, owner ?? UNOWNED);
        verdict = 'unwanted' in judged ? await waitFor(judged, signal) : judged;
      }
      if (!verdict.ok) throw verdict.error;
    },
    async close() {
      await Promise.all(children.map((c) => c.close()));
    },
  };
}

/** One child process, running one job at a time. */
class GuardChild {
  private process: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 0;
  private closed = false;
  busy = false;
  /** CPU time the last job used, read before the child is killed or goes idle. */
  lastCpuMs = 0;

  constructor(private readonly options: CompileGuardOptions) {}

  async run(request: Omit<GuardRequest, 'id'>): Promise<Verdict> {
    if (this.closed) return { ok: false, error: createError('ABORTED', 'the compile guard is closed'), remember: false };
    this.busy = true;
    try {
      return await this.judge(request);
    } finally {
      this.busy = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.kill();
  }

  private async judge(request: Omit<GuardRequest, 'id'>): Promise<Verdict> {
    let child: ChildProcess;
    try {
      child = await this.start();
    } catch (err) {
      return { ok: false, error: createError('INTERNAL', `the compile guard could not start: ${(err as Error).message}`), remember: false };
    }
    const id = this.nextId++;
    const cpuAtStart = cpuMs(child.pid);
    child.channel?.ref();
    return new Promise<Verdict>((resolve) => {
      const finish = (verdict: Verdict, kill: boolean): void => {
        this.lastCpuMs = Math.max(0, cpuMs(child.pid) - cpuAtStart);
        clearTimeout(timer);
        clearInterval(poll);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (kill) this.kill();
        else child.channel?.unref();
        resolve(verdict);
      };
      const onMessage = (reply: GuardReply): void => {
        if (reply.id !== id) return;
        // A compile quicker than one poll is looked at once more: its memory is still resident.
        if (reply.ok && residentBytes(child.pid) > this.options.memoryBytes) return finish(tooMuchMemory(this.options.memoryBytes), true);
        finish(reply.ok ? { ok: true } : { ok: false, error: createError(reply.code, reply.message) }, false);
      };
      const onExit = (): void => finish(tooComplex('compiling it stopped the compiler'), true);
      const timer = setTimeout(() => finish(busy(), true), this.options.budgetMs * WALL_FACTOR);
      const poll = setInterval(() => {
        if (residentBytes(child.pid) > this.options.memoryBytes) finish(tooMuchMemory(this.options.memoryBytes), true);
        else if (cpuMs(child.pid) - cpuAtStart > this.options.budgetMs) finish(tooComplex(`compiling it did not finish within ${this.options.budgetMs} ms`), true);
      }, MEMORY_POLL_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, ...request } satisfies GuardRequest, (err) => {
        if (err) finish({ ok: false, error: createError('INTERNAL', `the compile guard's process went away: ${err.message}`), remember: false }, true);
      });
    });
  }

  private start(): Promise<ChildProcess> {
    if (this.process && this.ready) {
      const child = this.process;
      return this.ready.then(() => child);
    }
    const child = fork(ENTRY, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: ['--max-old-space-size=256'],
    });
    child.unref();
    lowerPriority(child.pid);
    // A send to a child that has just died reports here; the exit below settles the job.
    child.on('error', () => {});
    child.once('exit', () => {
      if (this.process === child) this.process = this.ready = null;
    });
    this.process = child;
    this.ready = new Promise<void>((resolve, reject) => {
      const onReady = (reply: GuardReply): void => {
        if (reply.id !== -1) return;
        child.off('message', onReady);
        child.off('exit', onEarlyExit);
        resolve();
      };
      const onEarlyExit = (code: number | null): void => {
        child.off('message', onReady);
        reject(new Error(`its process exited with ${code} before it was ready`));
      };
      child.on('message', onReady);
      child.once('exit', onEarlyExit);
    });
    return this.ready.then(() => child);
  }

  private kill(): void {
    const child = this.process;
    this.process = this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

function tooComplex(why: string): Verdict {
  const message = `pattern too complex: ${why}; simplify it (fewer optional or repeated parts, smaller repetition counts, fewer alternatives)`;
  return { ok: false, error: createError('PATTERN_UNSUPPORTED', message, { reason: 'too-complex' }) };
}

function spent(waitMs: number): Verdict {
  const seconds = Math.ceil(waitMs / 1000);
  return { ok: false, error: createError('PATTERN_UNSUPPORTED', `too many costly new patterns from this caller: checking them used its share of the server; try again in ${seconds} s, or reuse a pattern already checked`, { reason: 'guard-budget', retryAfterSeconds: seconds }), remember: false };
}

function tooMuchMemory(memoryBytes: number): Verdict {
  return tooComplex(`compiling it needed more than ${Math.round(memoryBytes / 2 ** 20)} MiB`);
}

function busy(): Verdict {
  return { ok: false, error: createError('TIMEOUT', 'the server is too busy to check this pattern now; try again shortly'), remember: false };
}

function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, CHILD_NICE);
  } catch {
    // Not permitted in some sandboxes: the CPU budget still bounds the child.
  }
}

/** The child's user + system CPU time in ms from /proc (0 when it is gone). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // proc(5) fields 14 (utime) and 15 (stime); `fields` starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return 0;
  }
}

/** The child's resident set size from /proc (0 when it is gone): native compiler memory included. */
function residentBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}
