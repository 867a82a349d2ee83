/**
 * Removes what has expired from the store: authorization codes, device codes and their user codes,
 * OAuth access and refresh tokens, grant families whose last token has expired, and sign-in
 * sessions. A pass reads at most `limit` entries of each database, going on where the previous
 * pass of this process stopped, so the work per pass is bounded however big the store is; run a
 * pass on each write that adds entries and the sweep outpaces the growth. Never touches a live entry.
 */

import type { Table } from './engine.js';
import type { Store } from './records.js';

/** Entries read per database in the pass that follows a write: far more than a write adds (at most three). */
export const PURGE_PASS_LIMIT = 64;

export interface PurgeCount {
  readonly scanned: number;
  readonly removed: number;
}

type Cursors = { secrets?: string; sessions?: string; families?: string };
const cursors = new WeakMap<Store, Cursors>();

function userCodeKey(userCode: string): string {
  return `user-code:${userCode}`;
}

/**
 * Reads up to `limit` entries after `after` (from the start when undefined) and removes the
 * expired ones; returns where the next pass starts (undefined: the end was reached, so from the start).
 */
function sweep<V>(db: Table<V, string>, after: string | undefined, limit: number, expired: (value: V) => boolean, removing: (value: V) => void): { next: string | undefined; count: PurgeCount } {
  const doomed: { key: string; value: V }[] = [];
  let scanned = 0;
  let last: string | undefined;
  let reachedEnd = true;
  for (const { key, value } of db.getRange(after === undefined ? {} : { start: after })) {
    if (key === after) continue;
    if (scanned === limit) {
      reachedEnd = false;
      break;
    }
    scanned++;
    last = key;
    if (expired(value)) doomed.push({ key, value });
  }
  for (const { key, value } of doomed) {
    db.removeSync(key);
    removing(value);
  }
  return { next: reachedEnd ? undefined : last, count: { scanned, removed: doomed.length } };
}

/** One bounded pass over the expiring databases, in one write transaction. */
export function purgeExpired(store: Store, limit: number = PURGE_PASS_LIMIT, now = Date.now()): PurgeCount {
  return store.root.transactionSync(() => {
    const at = cursors.get(store) ?? {};
    const secrets = sweep(store.oauthSecrets, at.secrets, limit, (record) => record.expiresAt <= now, (record) => {
      if (record.kind === 'device') store.oauthSecrets.removeSync(userCodeKey(record.userCode));
    });
    const sessions = sweep(store.sessions, at.sessions, limit, (session) => session.expiresAt <= now, () => undefined);
    // Families issued before they recorded an expiry have none: they are kept.
    const families = sweep(store.oauthFamilies, at.families, limit, (family) => family.expiresAt !== undefined && family.expiresAt <= now, () => undefined);
    cursors.set(store, { secrets: secrets.next, sessions: sessions.next, families: families.next });
    const passes = [secrets.count, sessions.count, families.count];
    return { scanned: passes.reduce((n, c) => n + c.scanned, 0), removed: passes.reduce((n, c) => n + c.removed, 0) };
  });
}
