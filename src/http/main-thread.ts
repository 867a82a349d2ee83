/**
 * For the doors: work a request's caller alone causes on the main thread (reading its document,
 * parsing its query), charged to that caller's main-thread time (pool/main-thread-budget.ts).
 */
import { onMainThreadOf } from '../pool/main-thread-budget.js';
import { ownerOf } from '../pool/work-owner.js';
import type { HttpRequest } from './request.js';

/**
 * Runs `work` and charges the time it took to return (an async function's: up to its first await).
 * `by`: the request, or its signal (HttpRequest.signal) where only that is at hand.
 */
export function onCallersMainThread<T>(by: Pick<HttpRequest, 'owner'> | AbortSignal, work: () => T): T {
  return onMainThreadOf(by instanceof AbortSignal ? ownerOf(by) : by.owner, work);
}
