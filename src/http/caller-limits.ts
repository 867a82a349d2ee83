/**
 * Per-caller limits at the edge: requests per minute (a token bucket) and requests answered at
 * once, each caller's overflow waiting in its own bounded queue, so a heavy caller never delays
 * another; and a caller barred for spending a server-side budget is refused until it refills.
 * Callers are opaque keys; what a key means is the composition root's business.
 */
import { barredFor } from '../pool/work-owner.js';

export interface Caller {
  /** Stable per caller, e.g. `token:12` or `address:192.0.2.1`; never a secret. */
  readonly key: string;
  /** Keyed by its address: takes the anonymous budget. */
  readonly anonymous: boolean;
}

/** Read on every request, so a site configuration change applies to the next one; 0 means no limit. */
export interface CallerLimitSettings {
  readonly requestsPerMinute: number;
  readonly anonymousRequestsPerMinute: number;
  readonly concurrentRequests: number;
  readonly queuedRequests: number;
  readonly queueTimeoutMs: number;
}

/** `barred`: the caller spent a server-side budget (pool/work-owner.ts) and waits for it to refill. */
export type LimitReason = 'rate' | 'queue-full' | 'queue-timeout' | 'barred';

export type Admission =
  | { readonly ok: true; release(): void }
  | { readonly ok: false; readonly reason: LimitReason; readonly retryAfterSeconds: number };

export interface CallerLimiter {
  /** Synchronous unless the caller is at its concurrency limit and queues; release() once answered. */
  /** `request.signal` is read only when the request must wait: most never do, and making one costs. */
  admit(caller: Caller, request: { readonly signal: AbortSignal }): Admission | Promise<Admission>;
  /** Callers whose state is held (bounded by maxCallers plus those with requests in flight). */
  readonly trackedCallers: number;
}

export interface CallerLimiterOptions {
  /** Idle callers beyond this are forgotten, oldest first: a forgotten caller starts with a full budget. */
  readonly maxCallers?: number;
  readonly now?: () => number;
}

interface Waiter {
  readonly resolve: (admission: Admission) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
  timer: NodeJS.Timeout | undefined;
}

interface CallerState {
  /** Requests left in the bucket; refilled continuously at the per-minute rate. */
  budget: number;
  refilledAt: number;
  inFlight: number;
  readonly queue: Waiter[];
}

const DEFAULT_MAX_CALLERS = 50_000;
const MS_PER_MINUTE = 60_000;
/** A caller refused for its queue may retry about when a slot frees. */
const QUEUE_RETRY_SECONDS = 1;

export function createCallerLimiter(settings: () => CallerLimitSettings, options: CallerLimiterOptions = {}): CallerLimiter {
  const maxCallers = options.maxCallers ?? DEFAULT_MAX_CALLERS;
  const now = options.now ?? (() => performance.now());
  const callers = new Map<string, CallerState>();

  const refill = (state: CallerState, perMinute: number, at: number): void => {
    state.budget = Math.min(perMinute, state.budget + ((at - state.refilledAt) * perMinute) / MS_PER_MINUTE);
    state.refilledAt = at;
  };

  /** Forgets idle callers until a tenth of the room is free again: full buckets first, then the oldest. */
  const makeRoom = (limits: CallerLimitSettings, at: number): void => {
    const target = Math.floor(maxCallers * 0.9);
    const idle = (state: CallerState): boolean => state.inFlight === 0 && state.queue.length === 0;
    for (const [key, state] of callers) {
      if (callers.size <= target) return;
      const perMinute = Math.max(limits.requestsPerMinute, limits.anonymousRequestsPerMinute);
      if (idle(state) && (perMinute === 0 || state.budget + ((at - state.refilledAt) * perMinute) / MS_PER_MINUTE >= perMinute)) callers.delete(key);
    }
    for (const [key, state] of callers) {
      if (callers.size <= target) return;
      if (idle(state)) callers.delete(key);
    }
  };

  const stateOf = (key: string, perMinute: number, limits: CallerLimitSettings, at: number): CallerState => {
    let state = callers.get(key);
    if (state === undefined) {
      if (callers.size >= maxCallers) makeRoom(limits, at);
      // Unlimited now: should a limit be set later, this caller starts it with a full bucket.
      state = { budget: perMinute > 0 ? perMinute : Infinity, refilledAt: at, inFlight: 0, queue: [] };
      callers.set(key, state);
    }
    return state;
  };

  const grant = (state: CallerState): Admission => {
    state.inFlight++;
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        state.inFlight--;
        pump(state);
      },
    };
  };

  /** Hands freed slots to the caller's own waiters, oldest first. */
  const pump = (state: CallerState): void => {
    if (state.queue.length === 0) return;
    const { concurrentRequests } = settings();
    while (state.queue.length > 0 && (concurrentRequests === 0 || state.inFlight < concurrentRequests)) {
      const waiter = state.queue.shift()!;
      clearTimeout(waiter.timer);
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(grant(state));
    }
  };

  const wait = (state: CallerState, signal: AbortSignal, timeoutMs: number): Promise<Admission> => new Promise((resolve) => {
    const leave = (admission: Admission): void => {
      const at = state.queue.indexOf(waiter);
      if (at === -1) return;
      state.queue.splice(at, 1);
      clearTimeout(waiter.timer);
      signal.removeEventListener('abort', waiter.onAbort);
      resolve(admission);
    };
    const timedOut: Admission = { ok: false, reason: 'queue-timeout', retryAfterSeconds: QUEUE_RETRY_SECONDS };
    const waiter: Waiter = { resolve, signal, onAbort: () => leave(timedOut), timer: undefined };
    state.queue.push(waiter);
    waiter.timer = setTimeout(() => leave(timedOut), timeoutMs);
    signal.addEventListener('abort', waiter.onAbort, { once: true });
  });

  return {
    admit(caller, request) {
      const barred = barredFor(caller.key);
      if (barred > 0) return { ok: false, reason: 'barred', retryAfterSeconds: Math.ceil(barred / 1000) };
      const limits = settings();
      const at = now();
      const perMinute = caller.anonymous ? limits.anonymousRequestsPerMinute : limits.requestsPerMinute;
      const state = stateOf(caller.key, perMinute, limits, at);
      if (perMinute > 0) {
        refill(state, perMinute, at);
        if (state.budget < 1) return { ok: false, reason: 'rate', retryAfterSeconds: Math.max(1, Math.ceil(((1 - state.budget) * 60) / perMinute)) };
        state.budget -= 1;
      }
      if (limits.concurrentRequests === 0 || state.inFlight < limits.concurrentRequests) return grant(state);
      if (state.queue.length >= limits.queuedRequests) return { ok: false, reason: 'queue-full', retryAfterSeconds: QUEUE_RETRY_SECONDS };
      return wait(state, request.signal, limits.queueTimeoutMs);
    },
    get trackedCallers() {
      return callers.size;
    },
  };
}
