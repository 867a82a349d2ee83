/**
 * Who a request's pool work is charged to, found from the request's AbortSignal: every task a
 * request starts already carries that signal down to the pool, so the fair queues learn the caller
 * without a parameter threaded through every service. And callers barred for a while for having
 * spent a server-side budget: the edge refuses them with 429 before reading or parsing anything,
 * so a refusal that is cheap to give cannot be asked for in a fast loop.
 */

const owners = new WeakMap<AbortSignal, string>();

/** Work without a known caller (the indexer, the CLI, internal jobs) shares one owner. */
export const UNOWNED = '';

export function chargeSignalTo(signal: AbortSignal, owner: string): void {
  owners.set(signal, owner);
}

export function ownerOf(signal: AbortSignal | undefined): string {
  return signal === undefined ? UNOWNED : owners.get(signal) ?? UNOWNED;
}

const barredUntil = new Map<string, number>();
/** Bars tracked at once; expired ones are dropped first, then the soonest to expire. */
const MAX_BARRED = 4096;

export function barOwner(owner: string, forMs: number): void {
  if (owner === UNOWNED) return;
  if (!barredUntil.has(owner) && barredUntil.size >= MAX_BARRED) dropExpiredBars();
  barredUntil.set(owner, Math.max(barredUntil.get(owner) ?? 0, Date.now() + forMs));
}

/** Milliseconds `owner` remains barred; 0 when it is not. */
export function barredFor(owner: string): number {
  const until = barredUntil.get(owner);
  if (until === undefined) return 0;
  const left = until - Date.now();
  if (left > 0) return left;
  barredUntil.delete(owner);
  return 0;
}

function dropExpiredBars(): void {
  const now = Date.now();
  for (const [owner, until] of barredUntil) if (until <= now) barredUntil.delete(owner);
  if (barredUntil.size < MAX_BARRED) return;
  const soonest = [...barredUntil].sort((a, b) => a[1] - b[1]).slice(0, Math.ceil(MAX_BARRED / 10));
  for (const [owner] of soonest) barredUntil.delete(owner);
}
