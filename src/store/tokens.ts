/**
 * Access tokens: `sgp_local_<40 hex>`, shown once at creation. Only the SHA-256 of the 40-hex
 * secret is stored, so nothing in the store can be replayed as a token.
 */

import { createHash, randomBytes } from 'node:crypto';
import { createError } from '../errors.js';
import { takeNextId } from './counters.js';
import type { AccessTokenRecord, Store, StoredAccessToken } from './records.js';
import { getUser } from './users.js';
import { bumpGeneration } from './generation.js';

export const TOKEN_SCOPES = ['user:all', 'mcp', 'site-admin:sudo'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface NewAccessToken {
  readonly userId: number;
  readonly scopes: readonly string[];
  readonly note: string;
  readonly creatorId: number;
}

const INSTANCE_IDENTIFIER = 'local';
const SECRET_BYTES = 20;
// Every input form of reference §4.1; the 40-hex group is the secret.
const TOKEN_INPUT = /^(?:(?:sgp_|sgph_)(?:[a-zA-Z0-9]+_)?)?([a-fA-F0-9]{40})$/;
const TOUCH_INTERVAL_MS = 60_000;

function hashSecret(secretHex: string): string {
  return createHash('sha256').update(secretHex.toLowerCase()).digest('hex');
}

function validateScopes(scopes: readonly string[]): string[] {
  if (scopes.length === 0) throw createError('INVALID_ARGUMENT', `a token needs at least one scope (${TOKEN_SCOPES.join(', ')})`);
  for (const scope of scopes) {
    if (!(TOKEN_SCOPES as readonly string[]).includes(scope)) {
      throw createError('INVALID_ARGUMENT', `unknown scope "${scope}" (valid: ${TOKEN_SCOPES.join(', ')})`, { scope });
    }
  }
  return [...new Set(scopes)].sort();
}

/** Creates a token and returns its only plain-text copy. */
export function createAccessToken(store: Store, input: NewAccessToken): { id: number; token: string } {
  const scopes = validateScopes(input.scopes);
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  const id = store.root.transactionSync(() => {
    const owner = getUser(store, input.userId);
    if (owner === undefined) throw createError('USER_NOT_FOUND', `no user with id ${input.userId}`, { id: input.userId });
    const creator = getUser(store, input.creatorId);
    if (creator === undefined) throw createError('USER_NOT_FOUND', `no user with id ${input.creatorId}`, { id: input.creatorId });
    if (scopes.includes('site-admin:sudo') && !(creator.siteAdmin && owner.siteAdmin)) {
      throw createError('FORBIDDEN', 'only a site admin may create a site-admin:sudo token, and only for a site admin');
    }
    const record: StoredAccessToken = {
      id: takeNextId(store, 'nextTokenId'),
      userId: input.userId,
      scopes,
      note: input.note,
      creatorId: input.creatorId,
      createdAt: new Date().toISOString(),
      revoked: false,
      hash: hashSecret(secret),
    };
    store.tokens.putSync(record.id, record);
    store.tokenHashes.putSync(record.hash, record.id);
    bumpGeneration(store);
    return record.id;
  });
  return { id, token: `sgp_${INSTANCE_IDENTIFIER}_${secret}` };
}

function toRecord(store: Store, stored: StoredAccessToken): AccessTokenRecord {
  const { hash: _hash, ...rest } = stored;
  return { ...rest, lastUsedAt: store.tokenLastUsed.get(stored.id) ?? null };
}

/** The token as authentication sees it: without its last use, which costs a read to fetch. */
export type LiveAccessToken = Omit<AccessTokenRecord, 'lastUsedAt'>;

/** The live (unrevoked) token `token` stands for, in any accepted input form; else undefined. */
export function findAccessToken(store: Store, token: string): AccessTokenRecord | undefined {
  const live = lookupAccessToken(store, token);
  return live === undefined ? undefined : { ...live, lastUsedAt: store.tokenLastUsed.get(live.id) ?? null };
}

/** findAccessToken without the last-use read, for authenticating every request. */
export function lookupAccessToken(store: Store, token: string): LiveAccessToken | undefined {
  const secret = TOKEN_INPUT.exec(token)?.[1];
  if (secret === undefined) return undefined;
  // Looking up by hash keeps secret comparison out of JS: equal hashes are found, not compared.
  const id = store.tokenHashes.get(hashSecret(secret));
  const stored = id === undefined ? undefined : store.tokens.get(id);
  if (stored === undefined || stored.revoked) return undefined;
  const { hash: _hash, ...live } = stored;
  return live;
}

export function getAccessToken(store: Store, id: number): AccessTokenRecord | undefined {
  const stored = store.tokens.get(id);
  return stored === undefined ? undefined : toRecord(store, stored);
}

/** Every token (revoked ones included), or one user's, ordered by id. */
export function listAccessTokens(store: Store, userId?: number): AccessTokenRecord[] {
  const all = Array.from(store.tokens.getRange(), ({ value }) => value);
  return all.filter((t) => userId === undefined || t.userId === userId).map((t) => toRecord(store, t));
}

/** Marks the token revoked and forgets its hash; TOKEN_NOT_FOUND when there is no such token. */
export function revokeAccessToken(store: Store, id: number): AccessTokenRecord {
  return store.root.transactionSync(() => {
    const stored = store.tokens.get(id);
    if (stored === undefined) throw createError('TOKEN_NOT_FOUND', `no access token with id ${id}`, { id });
    const revoked: StoredAccessToken = { ...stored, revoked: true };
    store.tokenHashes.removeSync(stored.hash);
    store.tokens.putSync(id, revoked);
    bumpGeneration(store);
    return toRecord(store, revoked);
  });
}

/** Removes every token of a user; call inside the transaction that deletes the user. */
export function deleteTokensOf(store: Store, userId: number): void {
  for (const { key, value } of store.tokens.getRange()) {
    if (value.userId !== userId) continue;
    store.tokenHashes.removeSync(value.hash);
    store.tokenLastUsed.removeSync(key);
    store.tokens.removeSync(key);
    bumpGeneration(store);
  }
}

const lastTouched = new WeakMap<Store, Map<number, number>>();

/** Records a use of the token, writing at most once a minute per token and never blocking. */
export function touchAccessToken(store: Store, id: number, now = Date.now()): void {
  let touched = lastTouched.get(store);
  if (touched === undefined) lastTouched.set(store, (touched = new Map()));
  if (now - (touched.get(id) ?? -Infinity) < TOUCH_INTERVAL_MS) return;
  touched.set(id, now);
  // Best effort: a lost last-use time is harmless, and the write must not delay the request.
  store.tokenLastUsed.put(id, new Date(now).toISOString()).catch(() => touched.delete(id));
}
