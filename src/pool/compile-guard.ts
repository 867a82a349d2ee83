/**
 * The compile guard: before any thread of this process compiles a pattern set, a child process
 * compiles it (compile-guard-process.ts) within a time and memory budget and is killed past them.
 * Neither Hyperscan's compiler nor V8's RegExp compiler can be interrupted inside a thread: a
 * worker terminated at its deadline keeps compiling, and some patterns (`a?{n}a{n}`) take V8
 * exponential time. Verdicts are cached under the workers' own matcher-cache key, so a repeated set
 * costs a lookup and a refused one is refused at once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createError, type QuarryError } from '../errors.js';
import { matcherCacheKey } from '../matcher/cache.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';
import type { GuardReply, GuardRequest } from './compile-guard-messages.js';

export interface CompileGuardOptions {
  /** Compiling every form of one set must finish within this. */
  readonly budgetMs: number;
  /** Resident memory a child process may reach while it compiles. */
  readonly memoryBytes: number;
  /** Child processes compiling side by side, so one costly set does not hold up the others. */
  readonly processes?: number;
  readonly cacheEntries?: number;
}

export interface CompileGuard {
  /**
   * Resolves when workers may compile the set; rejects with the error compiling it gives
   * (PATTERN_INVALID, PATTERN_UNSUPPORTED), and with PATTERN_UNSUPPORTED when it costs too much.
   */
  vet(patterns: readonly PatternSpec[], preference: EnginePreference): Promise<void>;
  close(): Promise<void>;
}

type Verdict = { readonly ok: true } | { readonly ok: false; readonly error: QuarryError };

interface Job {
  readonly request: Omit<GuardRequest, 'id'>;
  readonly settle: (verdict: Verdict) => void;
}

const ENTRY = new URL('./compile-guard-process.js', import.meta.url);
const MEMORY_POLL_MS = 20;
const PAGE_BYTES = 4096;

export function createCompileGuard(options: CompileGuardOptions): CompileGuard {
  const verdicts = new Map<string, Verdict>();
  const pending = new Map<string, Promise<Verdict>>();
  const children = Array.from({ length: Math.max(1, options.processes ?? 1) }, () => new GuardChild(options));
  const capacity = options.cacheEntries ?? 4096;

  const remember = (key: string, verdict: Verdict): void => {
    if (verdicts.size >= capacity) verdicts.delete(verdicts.keys().next().value as string);
    verdicts.set(key, verdict);
  };

  const judge = (key: string, patterns: readonly PatternSpec[], preference: EnginePreference): Promise<Verdict> => {
    const running = pending.get(key);
    if (running) return running;
    const child = children.reduce((least, c) => (c.load < least.load ? c : least));
    const judged = new Promise<Verdict>((settle) => child.submit({ request: { patterns, preference }, settle })).then((verdict) => {
      pending.delete(key);
      remember(key, verdict);
      return verdict;
    });
    pending.set(key, judged);
    return judged;
  };

  return {
    async vet(patterns, preference) {
      if (patterns.length === 0) return;
      const key = matcherCacheKey(patterns, preference);
      const known = verdicts.get(key);
      if (known) {
        verdicts.delete(key);
        verdicts.set(key, known);
      }
      const verdict = known ?? (await judge(key, patterns, preference));
      if (!verdict.ok) throw verdict.error;
    },
    async close() {
      await Promise.all(children.map((c) => c.close()));
    },
  };
}

/** One child process and the jobs waiting for it, run one at a time. */
class GuardChild {
  private process: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Job[] = [];
  private running = false;
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: CompileGuardOptions) {}

  get load(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  submit(job: Job): void {
    if (this.closed) return job.settle({ ok: false, error: createError('ABORTED', 'the compile guard is closed') });
    this.queue.push(job);
    if (!this.running) void this.drain();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.settle({ ok: false, error: createError('ABORTED', 'the compile guard is closed') });
    this.kill();
  }

  private async drain(): Promise<void> {
    this.running = true;
    for (let job = this.queue.shift(); job; job = this.queue.shift()) job.settle(await this.run(job.request));
    this.running = false;
  }

  private async run(request: Omit<GuardRequest, 'id'>): Promise<Verdict> {
    let child: ChildProcess;
    try {
      child = await this.start();
    } catch (err) {
      return { ok: false, error: createError('INTERNAL', `the compile guard could not start: ${(err as Error).message}`) };
    }
    const id = this.nextId++;
    child.channel?.ref();
    return new Promise<Verdict>((resolve) => {
      const finish = (verdict: Verdict, kill: boolean): void => {
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
        finish(reply.ok ? { ok: true } : { ok: false, error: createError(reply.code, reply.message) }, false);
      };
      const onExit = (): void => finish(tooComplex('compiling it stopped the compiler'), true);
      const timer = setTimeout(() => finish(tooComplex(`compiling it did not finish within ${this.options.budgetMs} ms`), true), this.options.budgetMs);
      const poll = setInterval(() => {
        if (residentBytes(child.pid) > this.options.memoryBytes) finish(tooComplex(`compiling it needed more than ${Math.round(this.options.memoryBytes / 2 ** 20)} MiB`), true);
      }, MEMORY_POLL_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, ...request } satisfies GuardRequest, (err) => {
        if (err) finish({ ok: false, error: createError('INTERNAL', `the compile guard's process went away: ${err.message}`) }, true);
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

/** The child's resident set size from /proc (0 when it is gone): native compiler memory included. */
function residentBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}
