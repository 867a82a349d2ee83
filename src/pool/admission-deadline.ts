/**
 * The signal that bounds a task's admission (the compile guard's vetting): the caller's deadline
 * plus the pool's grace, and the caller's own signal. The guard's budget is CPU time at a low
 * priority, so on a busy machine a costly pattern can take many times its budget in wall time,
 * which a caller who asked for `timeout:1s` must not wait for.
 */
import { createError } from '../errors.js';
import { cancelled } from './kinds.js';
import type { SubmitOptions } from './pool.js';

export interface AdmissionBound {
  /** Aborts with the error the caller gets: TIMEOUT past the deadline, ABORTED when cancelled. */
  readonly signal: AbortSignal | undefined;
  dispose(): void;
}

export function admissionBound(options: SubmitOptions, graceMs: number, what: string): AdmissionBound {
  const { deadline, signal } = options;
  if (deadline === undefined && signal === undefined) return { signal: undefined, dispose: () => undefined };
  const bound = new AbortController();
  const timer = deadline === undefined ? undefined : setTimeout(() => {
    bound.abort(createError('TIMEOUT', `${what} passed its deadline while its patterns were being checked; the same patterns are answered sooner once the check is done`));
  }, Math.max(0, deadline - Date.now()) + graceMs);
  const onAbort = (): void => bound.abort(cancelled(what));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: bound.signal,
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
