/**
 * How a task kind is named in errors, what code its failures carry and which of its arrays move
 * to a worker; and the errors every pool implementation rejects with, so that they answer alike.
 */
import { createError, errorMessage, isQuarryError, type ErrorCode, type QuarryError } from '../errors.js';
import type { CodedFailure } from './messages.js';
import type { MessagePort } from 'node:worker_threads';
import type { TaskMap } from './pool.js';

export interface KindPolicy<Task> {
  /** Names the task in errors ("shard search"). */
  readonly what: string;
  /** The code of a failure that is not the handler's own QuarryError: a bug, a thread that died, a memory cap. */
  readonly failure: ErrorCode;
  /** Arrays (and message ports) that go to a worker moved with the task, not copied. */
  readonly transfer?: (task: Task) => readonly Transferable[];
}

/** What a task may move to its worker: array buffers, and a port for talking to its caller while it runs. */
export type Transferable = ArrayBufferLike | MessagePort;

export type KindTable<Tasks extends TaskMap> = { readonly [K in keyof Tasks]: KindPolicy<Tasks[K]['task']> };

export function poolClosed(): QuarryError {
  return createError('ABORTED', 'the worker pool closed');
}

export function cancelled(what: string): QuarryError {
  return createError('ABORTED', `${what} cancelled`);
}

export function waitedPastDeadline(what: string): QuarryError {
  return createError('TIMEOUT', `${what} waited past its deadline for a worker`, { waitedForWorker: true });
}

/** The error of a task that failed in its handler or lost its thread. */
export function taskFailure(err: unknown, policy: KindPolicy<never>): QuarryError {
  if (isQuarryError(err)) return err;
  if (isCodedFailure(err)) return createError(err.code, err.message, { ...err.details });
  return createError(policy.failure, `${policy.what} failed: ${errorMessage(err)}`);
}

/** Worker side: what to throw for `err` so a QuarryError keeps its code on the other thread. */
export function acrossThreads(err: unknown): unknown {
  if (!isQuarryError(err)) return err;
  const failure: CodedFailure = { quarryError: true, code: err.code, message: err.message, details: cloneable(err.details) };
  return failure;
}

/** Details that cannot be cloned (a function, a handle) would turn the failure into a clone error. */
function cloneable(details: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  try {
    return structuredClone(details);
  } catch {
    return {};
  }
}

function isCodedFailure(err: unknown): err is CodedFailure {
  return typeof err === 'object' && err !== null && (err as Partial<CodedFailure>).quarryError === true;
}
