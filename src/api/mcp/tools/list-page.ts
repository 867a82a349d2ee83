/**
 * Paging of an ordered list by `after` cursor (keyword_search, nls_search, list_files,
 * get_contributor_repos): where a page starts, the cursor after the last item shown, and the closing
 * line with the exact arguments of the next call. A cursor holds a fingerprint of the items up to
 * its position, so a list that changed between pages is said to have changed, never passed off
 * as the same list. It orders nothing itself: the caller's order must be the same on every call.
 */
import { createHash } from 'node:crypto';
import { encodeCursor, readCursor } from './page-cursor.js';

/** Questions longer than this are carried in cursors as a prefix and a digest, so cursors stay short. */
const MAX_QUESTION_CHARS = 200;
const FINGERPRINT_CHARS = 16;
/** Argument values longer than this are not repeated in the next-call line (it says "the same"). */
const MAX_ECHOED_CHARS = 600;

export interface PageStart {
  /** Index of the first item of this page. */
  readonly start: number;
  /** The items before `start` are not the ones the cursor's answer had: the pages may repeat or miss items. */
  readonly changed: boolean;
}

/** The question a cursor is bound to; the tool's name is part of it, so one tool refuses another's cursor. */
export function pageQuestion(tool: string, subject: string): string {
  const question = `${tool} ${subject}`;
  if (question.length <= MAX_QUESTION_CHARS) return question;
  const digest = createHash('sha256').update(question).digest('hex').slice(0, 16);
  return `${question.slice(0, MAX_QUESTION_CHARS - 40)}… (${question.length} characters, sha256 ${digest})`;
}

/**
 * Where the page asked for starts. `keys` name the items in order, each with its version (a commit,
 * a count) where it has one, so a changed item shows in the fingerprint.
 */
export function pageStart(after: string | undefined, question: string, tool: string, keys: readonly string[]): PageStart {
  if (after === undefined) return { start: 0, changed: false };
  const { index, fingerprint } = readCursor(after, question, 'after', tool);
  return { start: index + 1, changed: fingerprint !== fingerprintOf(keys, index) };
}

/** The cursor for the page after `lastShown` (an index into `keys`). */
export function cursorAfter(question: string, keys: readonly string[], lastShown: number): string {
  return encodeCursor(question, lastShown, fingerprintOf(keys, lastShown));
}

/** A cursor as long as cursorAfter's for the same position, to size an answer before its last item is known. */
export function cursorPlaceholder(question: string, lastShown: number): string {
  return encodeCursor(question, lastShown, '-'.repeat(FINGERPRINT_CHARS));
}

/** The last line of an answer with more to see: the call that shows the next page, arguments exact. */
export function nextPageLine(tool: string, args: Readonly<Record<string, unknown>>): string {
  const defined = Object.entries(args).filter(([, value]) => value !== undefined);
  const echoed = defined.filter(([, value]) => JSON.stringify(value).length <= MAX_ECHOED_CHARS);
  const same = defined.filter(([, value]) => JSON.stringify(value).length > MAX_ECHOED_CHARS).map(([name]) => name);
  const rest = same.length === 0 ? '' : ` and the same ${same.join(' and ')} as this call`;
  return `(more available - call ${tool} with ${JSON.stringify(Object.fromEntries(echoed))}${rest} to see the next ones)`;
}

/** What a page says when its list is not the one its cursor was made from. */
export function changedNote(what: string): string {
  return `Note: the ${what} changed since the previous page was made (the index or the repository moved on, or a search stopped at its limit in another place), so pages may repeat or miss some; call again without after to start over.`;
}

/** A digest of the keys of items 0..last; past the end of the list it cannot match a cursor's. */
function fingerprintOf(keys: readonly string[], last: number): string {
  if (last >= keys.length) return '';
  const hash = createHash('sha256');
  for (let i = 0; i <= last; i++) hash.update(keys[i]!).update('\0');
  return hash.digest('base64url').slice(0, FINGERPRINT_CHARS);
}
