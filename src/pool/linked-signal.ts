/**
 * Following several abort signals with listeners that go when the follower is done. On Node 20,
 * AbortSignal.any keeps a reference to its result in each source for good, and a result given an
 * abort listener is kept alive (with all it reaches) until it aborts: built per task over the
 * pool's lifelong closing signal, that held every settled task's controller (150 a second, about
 * 2 KB each, under the mixed-load bench).
 */

/** Calls `react` once, with the reason of the first source to abort; dispose() stops listening. */
export function onFirstAbort(sources: readonly AbortSignal[], react: (reason: unknown) => void): () => void {
  const dispose = (): void => {
    for (const source of sources) source.removeEventListener('abort', onAbort);
  };
  function onAbort(event: Event): void {
    dispose();
    react((event.target as AbortSignal).reason);
  }
  for (const source of sources) source.addEventListener('abort', onAbort);
  return dispose;
}

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops following the sources; the signal stays as it is. Call once the work it bounds has settled. */
  dispose(): void;
}

/** Passes a source's abort on to the linked signal: at once, or later (thread-teardown.ts waits for loads). */
export type AbortRelay = (abort: (reason: unknown) => void, reason: unknown) => void;

const atOnce: AbortRelay = (abort, reason) => abort(reason);

/**
 * A signal that aborts with the first of `sources` to abort, as AbortSignal.any does, without
 * outliving the work; `relay` decides when. A source already aborted aborts it at once.
 */
export function linkSignals(sources: readonly AbortSignal[], relay: AbortRelay = atOnce): LinkedSignal {
  const early = sources.find((source) => source.aborted);
  if (early !== undefined) return { signal: AbortSignal.abort(early.reason), dispose: () => undefined };
  const controller = new AbortController();
  const abort = (reason: unknown): void => controller.abort(reason);
  return { signal: controller.signal, dispose: onFirstAbort(sources, (reason) => relay(abort, reason)) };
}
