/**
 * For the doors: synchronous work a request's caller alone causes on the main thread (reading its
 * document, parsing its query), charged to that caller's main-thread time (pool/main-thread-budget.ts).
 */
import { onMainThreadOf } from '../pool/main-thread-budget.js';
import { ownerOf } from '../pool/work-owner.js';

/** `signal`: the request's (HttpRequest.signal), which names its caller. */
export function onCallersMainThread<T>(signal: AbortSignal, work: () => T): T {
  return onMainThreadOf(ownerOf(signal), work);
}
