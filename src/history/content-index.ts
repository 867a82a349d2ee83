/**
 * commit_search content terms decided by the history index: the terms as a diff pattern whose
 * line matches are exactly `git log -G`'s (C locale, ASCII-only case folding), and the commits of
 * a window whose stored diffs have a matching added or removed line, matched in the worker pool.
 * Terms git would read otherwise (non-ASCII text, `.`, escapes, classes, a regex that matches the
 * empty string) give no pattern: git decides them, as it does every commit the index does not hold.
 */
import type { TrigramQuery } from '../model/trigram.js';
import { planLiteral, planRegex, type RegexPlan } from '../regex/index.js';
import { ByteBudgetCache, identityOf, stringBytes } from './byte-budget-cache.js';
import { readsTheSame } from './content-filter.js';
import { commitFilter, type DiffIndexReader } from './diff-index-filter.js';
import { LINE_ADDED, LINE_REMOVED, type DiffLineRunner } from './diff-lines.js';
import type { DiffPattern } from './diff-match.js';

export interface ContentBounds {
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

export interface IndexedContent {
  /** The commits asked about whose stored diff matches. */
  readonly matched: ReadonlySet<string>;
  /** The commits the index does not hold: git decides them. */
  readonly unindexed: readonly string[];
}

/**
 * Per index, pattern and stored commit, whether its diff matches: the next page of a search (and
 * the same search again) checks again the commits past where a page stopped. A stored diff never
 * changes, so an answer stays true; bounded by bytes like diff search's answers.
 */
export const contentAnswers = new ByteBudgetCache<string, boolean>(8 * 1024 * 1024, (_, key) => 64 + stringBytes(key));

/** Stored records per pool task: enough to keep the round trip small, few enough that both threads share a window. */
const RECORDS_PER_TASK = 64;
/** Printable ASCII and tab: the literal bytes git's C-locale regcomp and the matcher read alike. */
const ASCII_TEXT = /^[\t\x20-\x7e]+$/;
const LETTER = /[A-Za-z]/g;

/**
 * The terms ORed as one diff pattern matching a line exactly when `git log -G` (with `-i` unless
 * case-sensitive) does, or null when git must decide. `trigrams` is what a line must hold for
 * any term (content-filter.ts's contentTrigrams), used to skip commits without reading them.
 */
export function indexedContentPattern(terms: readonly string[], useRegex: boolean, caseSensitive: boolean, trigrams: TrigramQuery): DiffPattern | null {
  const plans: RegexPlan[] = [];
  const literal: boolean[] = [];
  for (const term of terms) {
    if (!ASCII_TEXT.test(term) || (useRegex && !gitReadsAsMatcher(term))) return null;
    // git folds only ASCII letters under -i; the matcher would fold K to the Kelvin sign too, so
    // each letter becomes its own two-letter class and the match is case-sensitive.
    const source = useRegex ? term : term.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
    try {
      plans.push(caseSensitive && !useRegex ? planLiteral(term, { caseSensitive: true }) : planRegex(caseSensitive ? source : foldAscii(source), { caseSensitive: true }));
    } catch {
      return null;
    }
    // Without anchors, a line it matches makes the whole record (and hunk) holding it match too.
    literal.push(!useRegex || !/[\^$]/.test(term));
  }
  if (plans.length === 0) return null;
  return {
    specs: plans.map((plan) => plan.spec), highlight: plans.map((_, i) => i), merge: false, expr: null,
    trigrams: plans.map(() => trigrams), literal,
  };
}

/**
 * A regular expression the matcher reads as git's ERE does, over every line: no `.` (a byte to
 * git in the C locale, a character to the matcher), and no match of the empty string (git counts
 * one on any line; the matcher reports only non-empty ranges).
 */
function gitReadsAsMatcher(term: string): boolean {
  if (!readsTheSame(term) || term.includes('.')) return false;
  try {
    return !new RegExp(term).test('');
  } catch {
    return false;
  }
}

function foldAscii(source: string): string {
  return source.replace(LETTER, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/**
 * Which of `oids` have a stored diff with an added or removed line `pattern` matches: the index's
 * postings rule out most without reading them, the rest are inflated and matched in pool tasks.
 */
export async function matchIndexedContent(pool: DiffLineRunner, index: DiffIndexReader, oids: readonly string[], pattern: DiffPattern, bounds: ContentBounds): Promise<IndexedContent> {
  const searched = LINE_ADDED | LINE_REMOVED;
  const mustRead = commitFilter(index, pattern.trigrams[0]!, searched);
  const prefix = `${identityOf(index)}\0${JSON.stringify(pattern.specs)}\0`;
  const unindexed: string[] = [];
  const toRead: { oid: string; record: Uint8Array }[] = [];
  const matched = new Set<string>();
  for (const oid of oids) {
    const known = contentAnswers.get(prefix + oid);
    if (known !== undefined) {
      if (known) matched.add(oid);
      continue;
    }
    const ordinal = index.ordinalOf(oid);
    if (ordinal === undefined) {
      unindexed.push(oid);
      continue;
    }
    // Only the records the postings cannot rule out are read: most of a window never leaves the disk.
    if (!mustRead(oid)) continue;
    const record = index.deflatedRecord(ordinal);
    if (record === undefined) unindexed.push(oid);
    else toRead.push({ oid, record });
  }
  const tasks = [];
  for (let at = 0; at < toRead.length; at += RECORDS_PER_TASK) tasks.push(toRead.slice(at, at + RECORDS_PER_TASK));
  await Promise.all(tasks.map(async (task) => {
    const ends = new Uint32Array(task.length);
    let bytes = 0;
    task.forEach(({ record }, i) => (ends[i] = bytes += record.length));
    // Its own ArrayBuffer, so transferring it detaches nothing else.
    const records = new Uint8Array(bytes);
    task.forEach(({ record }, i) => records.set(record, i === 0 ? 0 : ends[i - 1]!));
    const job = { records, ends, pattern, searched, matchesOnly: true, deadline: bounds.deadline };
    const { matched: flags } = await pool.submit('diff-records', job, { ...(bounds.signal ? { signal: bounds.signal } : {}), deadline: bounds.deadline });
    task.forEach(({ oid }, i) => {
      if (flags[i] === 1) matched.add(oid);
      contentAnswers.set(prefix + oid, flags[i] === 1);
    });
  }));
  return { matched, unindexed };
}
