/** One model request's deadline, raced against its work rather than only handed to fetch. */

/**
 * undici's fetch follows the signal it is given through weak references, and after a garbage
 * collection the link can be gone (nodejs/node#55428): the request then never aborts and a model
 * that never answers hangs the question for good. So the timer is a plain one holding its
 * controller strongly, and `race` settles on the deadline whatever fetch does.
 */
export interface AttemptDeadline {
  readonly signal: AbortSignal;
  /** True once the timer, not the caller, ended the attempt. */
  readonly timedOut: boolean;
  race<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

export function attemptDeadline(outer: AbortSignal, timeoutMs: number): AttemptDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const onOuterAbort = (): void => controller.abort(outer.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  const { signal } = controller;
  return {
    signal,
    get timedOut() { return timedOut; },
    race<T>(work: Promise<T>): Promise<T> {
      if (signal.aborted) {
        work.catch(() => undefined);
        return Promise.reject(signal.reason);
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        work.then(
          (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
          (err: unknown) => { signal.removeEventListener('abort', onAbort); reject(err); },
        );
      });
    },
    dispose(): void {
      clearTimeout(timer);
      outer.removeEventListener('abort', onOuterAbort);
    },
  };
}
