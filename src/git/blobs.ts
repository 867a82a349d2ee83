/**
 * Blob reads through one long-lived `git cat-file --batch` per repository: requests are written
 * as they come and answered in order, so many reads are in flight on one process. Reads only blobs.
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createError, isQuarryError, type QuarryError } from '../errors.js';
import { BatchFrameParser, type BatchFrame } from './batch-frames.js';
import { isObjectId } from './oid.js';
import { firstErrorLine, gitArgs, gitEnvironment, gitFailure } from './run.js';

export interface BlobReadOptions {
  /** Larger blobs are refused with GIT_FAILED (details.reason 'too-large') without being buffered. */
  readonly maxBytes?: number;
}

export interface BlobReaderOptions extends BlobReadOptions {
  /** How long the oldest outstanding read may wait before the process is presumed stuck and killed. */
  readonly timeoutMs?: number;
}

export interface BlobReader {
  read(oid: string, options?: BlobReadOptions): Promise<Buffer>;
  /** Rejects every pending read and ends the git process. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BLOB_BYTES = 64 * 1024 * 1024;
const DEFAULT_READ_TIMEOUT_MS = 30_000;
const BATCH_ARGS = ['cat-file', '--batch'];

interface PendingRead {
  readonly oid: string;
  readonly maxBytes: number;
  resolve(content: Buffer): void;
  reject(err: QuarryError): void;
}

/** One `git cat-file --batch` child. Once it fails it stays failed; the reader starts another. */
class BatchProcess {
  private readonly queue: PendingRead[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly parser: BatchFrameParser;
  private timer: NodeJS.Timeout | null = null;
  /** When the current head of the queue started waiting: at enqueue, or when the previous answer came. */
  private headSince = 0;
  private stderrTail = '';
  private failed = false;
  readonly exited: Promise<void>;

  constructor(gitDir: string, private readonly timeoutMs: number) {
    this.child = spawn('git', gitArgs(BATCH_ARGS, gitDir), { env: gitEnvironment(), stdio: 'pipe' });
    this.exited = new Promise((resolve) => this.child.on('close', () => resolve()));
    this.parser = new BatchFrameParser({
      wants: (type, size) => type === 'blob' && size <= (this.queue[0]?.maxBytes ?? 0),
      frame: (frame) => this.answer(frame),
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      try {
        this.parser.push(chunk);
      } catch (err) {
        this.fail(isQuarryError(err) ? err : gitFailure(BATCH_ARGS, String(err)));
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    this.child.stdin.on('error', (err) => this.fail(gitFailure(BATCH_ARGS, err.message)));
    this.child.on('error', (err) => this.fail(gitFailure(BATCH_ARGS, err.message)));
    this.child.on('close', (code, signal) => {
      const reason = firstErrorLine(this.stderrTail) || `exited (${signal ?? `code ${String(code)}`})`;
      this.fail(gitFailure(BATCH_ARGS, reason, { gitDir }));
    });
  }

  get alive(): boolean {
    return !this.failed;
  }

  enqueue(request: PendingRead): void {
    this.queue.push(request);
    this.child.stdin.write(`${request.oid}\n`);
    if (this.queue.length === 1) this.headSince = performance.now();
    this.timer ??= setTimeout(() => this.checkProgress(), this.timeoutMs);
  }

  /** Rejects everything outstanding with `err` and kills the child; later calls do nothing. */
  fail(err: QuarryError): void {
    if (this.failed) return;
    this.failed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.child.kill('SIGKILL');
    for (const request of this.queue.splice(0)) request.reject(err);
  }

  private answer(frame: BatchFrame): void {
    const request = this.queue.shift();
    if (request === undefined || request.oid !== frame.oid) {
      const err = gitFailure(BATCH_ARGS, `answered ${frame.oid} out of order`);
      request?.reject(err);
      this.fail(err);
      return;
    }
    this.headSince = performance.now();
    if (frame.content !== null) request.resolve(frame.content);
    else request.reject(refusal(frame, request.maxBytes));
  }

  /** One timer for the whole queue, re-armed lazily: resetting a timer per answer costs more than the answer. */
  private checkProgress(): void {
    this.timer = null;
    if (this.failed || this.queue.length === 0) return;
    const waited = performance.now() - this.headSince;
    if (waited >= this.timeoutMs) {
      this.fail(gitFailure(BATCH_ARGS, `no answer within ${this.timeoutMs} ms`, { timedOut: true }));
      return;
    }
    this.timer = setTimeout(() => this.checkProgress(), this.timeoutMs - waited);
  }
}

function refusal(frame: BatchFrame, maxBytes: number): QuarryError {
  const { oid, type, size } = frame;
  if (type === 'missing' || type === 'ambiguous') return createError('GIT_FAILED', `object ${oid} not found`, { oid, reason: type });
  if (type !== 'blob') return createError('GIT_FAILED', `object ${oid} is a ${type}, not a blob`, { oid, reason: 'not-blob' });
  return createError('GIT_FAILED', `blob ${oid} is ${size} bytes, over the ${maxBytes} byte limit`, {
    oid,
    size,
    maxBytes,
    reason: 'too-large',
  });
}

/** A blob reader for the repository at `gitDir`; the git process starts on the first read. */
export function createBlobReader(gitDir: string, options: BlobReaderOptions = {}): BlobReader {
  const defaultMaxBytes = options.maxBytes ?? DEFAULT_MAX_BLOB_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  let current: BatchProcess | null = null;
  let closed = false;

  return {
    read(oid: string, readOptions: BlobReadOptions = {}): Promise<Buffer> {
      const id = oid.toLowerCase();
      if (closed) return Promise.reject(createError('GIT_FAILED', 'blob reader is closed', { gitDir }));
      if (!isObjectId(id)) return Promise.reject(createError('GIT_FAILED', `invalid object id: ${oid}`, { oid }));
      if (current === null || !current.alive) current = new BatchProcess(gitDir, timeoutMs);
      const batch = current;
      return new Promise((resolve, reject) => {
        batch.enqueue({ oid: id, maxBytes: readOptions.maxBytes ?? defaultMaxBytes, resolve, reject });
      });
    },
    async close(): Promise<void> {
      closed = true;
      if (current === null) return;
      current.fail(createError('GIT_FAILED', 'blob reader closed before the read finished', { gitDir }));
      await current.exited;
    },
  };
}
