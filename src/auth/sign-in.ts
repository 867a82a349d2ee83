/**
 * Signing a person in with a username and password: failures counted per username and per client
 * address (either past its limit refuses further tries for a while, before any password is
 * checked), and a brand-new session on success, so no session id known before sign-in is ever
 * signed in (session fixation). Passwords are never logged or kept.
 */
import type { Store, UserRecord } from '../store/records.js';
import { createSession, deleteSession, findSession } from '../store/sessions.js';
import { getUser, verifyPassword } from '../store/users.js';
import { addressKey } from './caller-key.js';

export interface SignInLimits {
  /** Failed attempts per username within the window. */
  readonly perUsername: number;
  /** Failed attempts per client address (IPv6 by /64) within the window. */
  readonly perAddress: number;
  readonly windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perUsername: 5, perAddress: 20, windowMs: 15 * 60_000 };
const MAX_TRACKED = 50_000;

/** Failure times per key, in memory (per process): enough to make guessing slow, never written anywhere. */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {}

  /** Seconds to wait before trying again, or 0 when an attempt may be made now. */
  retryAfterSeconds(username: string, address: string, now = Date.now()): number {
    const wait = (key: string, max: number): number => {
      const recent = this.recent(key, now);
      return recent.length < max ? 0 : Math.ceil((recent[recent.length - max]! + this.limits.windowMs - now) / 1000);
    };
    return Math.max(wait(userKey(username), this.limits.perUsername), wait(`address:${addressKey(address)}`, this.limits.perAddress));
  }

  recordFailure(username: string, address: string, now = Date.now()): void {
    if (this.failures.size >= MAX_TRACKED) this.failures.clear();
    for (const key of [userKey(username), `address:${addressKey(address)}`]) this.failures.set(key, [...this.recent(key, now), now]);
  }

  recordSuccess(username: string): void {
    this.failures.delete(userKey(username));
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.limits.windowMs);
  }
}

const userKey = (username: string) => `user:${username.toLowerCase()}`;

export type SignInResult =
  | { readonly ok: true; readonly user: UserRecord; readonly sessionId: string }
  | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * Checks the password unless the username or address is past its limit; on success ends the
 * session the browser had (`previousSessionId`) and starts a new one.
 */
export async function signIn(store: Store, limiter: SignInLimiter, attempt: { username: string; password: string; address: string; previousSessionId: string | null }, lifetimeMs: number): Promise<SignInResult> {
  const wait = limiter.retryAfterSeconds(attempt.username, attempt.address);
  if (wait > 0) return { ok: false, retryAfterSeconds: wait };
  const user = await verifyPassword(store, attempt.username, attempt.password);
  if (user === null) {
    limiter.recordFailure(attempt.username, attempt.address);
    return { ok: false, retryAfterSeconds: 0 };
  }
  limiter.recordSuccess(attempt.username);
  if (attempt.previousSessionId !== null) deleteSession(store, attempt.previousSessionId);
  return { ok: true, user, sessionId: createSession(store, user.id, lifetimeMs) };
}

/** The user a session cookie signs in, or null. */
export function signedInUser(store: Store, sessionId: string | null): UserRecord | null {
  if (sessionId === null) return null;
  const session = findSession(store, sessionId);
  return session === undefined ? null : (getUser(store, session.userId) ?? null);
}

export function signOut(store: Store, sessionId: string | null): void {
  if (sessionId !== null) deleteSession(store, sessionId);
}
