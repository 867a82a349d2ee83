/**
 * Browser sign-in sessions: a random id in the cookie, only its SHA-256 in the store, so the store
 * holds nothing a browser could present. A session names its user and when it ends; nothing else.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord, Store } from './records.js';
import { getUser } from './users.js';

const SESSION_ID_BYTES = 32;

function keyOf(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** Starts a session for the user and returns its only plain copy (the cookie's value). */
export function createSession(store: Store, userId: number, lifetimeMs: number, now = Date.now()): string {
  const id = randomBytes(SESSION_ID_BYTES).toString('base64url');
  store.sessions.putSync(keyOf(id), { userId, createdAt: now, expiresAt: now + lifetimeMs });
  return id;
}

/** The live session `sessionId` names, whose user still exists; else undefined (an expired one is removed). */
export function findSession(store: Store, sessionId: string, now = Date.now()): SessionRecord | undefined {
  if (sessionId.length === 0 || sessionId.length > 128) return undefined;
  const key = keyOf(sessionId);
  const session = store.sessions.get(key);
  if (session === undefined) return undefined;
  if (session.expiresAt <= now || getUser(store, session.userId) === undefined) {
    void store.sessions.remove(key);
    return undefined;
  }
  return session;
}

export function deleteSession(store: Store, sessionId: string): void {
  store.sessions.removeSync(keyOf(sessionId));
}

/** Ends every session of a user; call inside the transaction that deletes the user. */
export function deleteSessionsOf(store: Store, userId: number): void {
  for (const { key, value } of store.sessions.getRange()) if (value.userId === userId) store.sessions.removeSync(key);
}
