/**
 * Recent diff searches' answers for the stored commits they matched (the hit, or null for none),
 * across every history index, bounded by the bytes the hits hold: a page that ends at its answer
 * budget has matched commits past its end, which the next page asks about again. A stored
 * commit's diff never changes, so an answer stays true.
 */
import { ByteBudgetCache, identityOf, stringBytes } from './byte-budget-cache.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import type { CommitHit } from './diff-model.js';

/** What the answers may hold: a few pages of a few searches, even when every hit is a huge diff. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** A map entry, its key and the object around a value, roughly. */
const ENTRY_BYTES = 160;

/** Exported so a host (and a test) can read what it holds and set its budget. */
export const answerCache = new ByteBudgetCache<string, CommitHit | null>(ANSWER_CACHE_BYTES, (hit, key) => ENTRY_BYTES + stringBytes(key) + (hit === null ? 0 : commitHitBytes(hit)));

/** The answers of one search (pattern and sides searched) over one index. */
export function answersOf(index: DiffIndexReader, search: string): { get(oid: string): CommitHit | null | undefined; set(oid: string, hit: CommitHit | null): void } {
  const prefix = `${identityOf(index)}\0${search}\0`;
  return { get: (oid) => answerCache.get(prefix + oid), set: (oid, hit) => answerCache.set(prefix + oid, hit) };
}

/** Bytes a hit holds, roughly: its strings, and an object per hunk, line and range. */
export function commitHitBytes(hit: CommitHit): number {
  const { commit } = hit;
  let bytes = 200 + stringBytes(commit.message) + stringBytes(commit.authorName) + stringBytes(commit.authorEmail) + 48 * commit.parents.length;
  for (const hunk of hit.hunks) {
    bytes += 200 + stringBytes(hunk.hunk.section) + (hunk.oldPath === null ? 0 : stringBytes(hunk.oldPath)) + (hunk.newPath === null ? 0 : stringBytes(hunk.newPath));
    for (const line of hunk.hunk.lines) bytes += 80 + stringBytes(line.text);
    for (const lineHit of hunk.hits) bytes += 64 + 48 * lineHit.ranges.length;
  }
  return bytes;
}
