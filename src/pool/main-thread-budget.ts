/**
 * Main-thread time per caller: the one thread that reads every request is shared by all callers,
 * so work one caller alone causes there (reading a large GraphQL document, parsing a long query)
 * is charged to it, and a caller past its share is barred for a while (work-owner.ts), which the
 * edge answers with 429 before reading or parsing its next request. Work without a caller is free.
 */
import { OwnerBudgets } from './owner-budgets.js';
import { barOwner, UNOWNED } from './work-owner.js';

/** Null until the server sets it (setMainThreadBudget): the CLI and in-process callers are never barred. */
let budgets: OwnerBudgets | null = null;

/** Charges `ms` of main-thread time to `owner`, barring it while its bucket is overdrawn. */
export function chargeMainThread(owner: string, ms: number): void {
  if (budgets === null || owner === UNOWNED || !(ms > 0)) return;
  budgets.charge(owner, ms);
  const waitMs = budgets.waitMs(owner);
  if (waitMs > 0) barOwner(owner, waitMs);
}

/** Runs `work` and charges the time it took to return or throw to `owner` (an async function's: up to its first await). */
export function onMainThreadOf<T>(owner: string, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    chargeMainThread(owner, performance.now() - started);
  }
}

/** The server's setting (QUARRY_MAIN_THREAD_MS_PER_MINUTE), from now on: every caller starts with a full bucket. */
export function setMainThreadBudget(perMinute: number): void {
  budgets = new OwnerBudgets(perMinute);
}
