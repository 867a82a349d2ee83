/**
 * Builds TrigramQuery values in simplified form: AND/OR flattened and deduplicated, `all`/`none`
 * absorbed, `x AND (x OR y)` reduced to `x`. Works on byte strings (one char per byte, 0-255).
 */

import { MATCH_ALL, MATCH_NONE, packTrigram, type TrigramQuery } from '../model/trigram.js';

const hashes = new WeakMap<TrigramQuery, number>();

/** A structural hash, cached per composite node, so deduplication never re-serialises large queries. */
function hashOf(q: TrigramQuery): number {
  if (q.op === 'tri') return Math.imul(q.trigram + 7, 0x9e3779b1) >>> 0;
  if (q.op === 'all' || q.op === 'none') return q.op === 'all' ? 1 : 2;
  let h = hashes.get(q);
  if (h === undefined) {
    h = q.op === 'and' ? 3 : q.op === 'or' ? 5 : 11;
    for (const arg of q.args) h = Math.imul(h ^ hashOf(arg), 0x01000193) >>> 0;
    hashes.set(q, h);
  }
  return h;
}

function sameQuery(a: TrigramQuery, b: TrigramQuery): boolean {
  if (a === b) return true;
  if (a.op !== b.op || hashOf(a) !== hashOf(b)) return false;
  if (a.op === 'tri') return a.trigram === (b as typeof a).trigram;
  if (a.op === 'and' || a.op === 'or' || a.op === 'near') {
    const other = (b as typeof a).args;
    return a.args.length === other.length && a.args.every((arg, i) => sameQuery(arg, other[i] as TrigramQuery));
  }
  return true;
}

/** A set of queries compared by structure. */
class QuerySet {
  private readonly buckets = new Map<number, TrigramQuery | TrigramQuery[]>();

  has(q: TrigramQuery): boolean {
    const bucket = this.buckets.get(hashOf(q));
    if (bucket === undefined) return false;
    return Array.isArray(bucket) ? bucket.some((other) => sameQuery(other, q)) : sameQuery(bucket, q);
  }

  add(q: TrigramQuery): void {
    const h = hashOf(q);
    const bucket = this.buckets.get(h);
    if (bucket === undefined) this.buckets.set(h, q);
    else if (Array.isArray(bucket)) bucket.push(q);
    else this.buckets.set(h, [bucket, q]);
  }
}

/** Takes an array, not rest arguments: queries can have more parts than a call can have arguments. */
export function and(queries: readonly TrigramQuery[]): TrigramQuery {
  return combine('and', queries);
}

export function or(queries: readonly TrigramQuery[]): TrigramQuery {
  return combine('or', queries);
}

function combine(op: 'and' | 'or', queries: readonly TrigramQuery[]): TrigramQuery {
  const neutral = op === 'and' ? 'all' : 'none';
  const dominant = op === 'and' ? MATCH_NONE : MATCH_ALL;
  const args: TrigramQuery[] = [];
  const seen = new QuerySet();
  for (const query of queries) {
    for (const arg of query.op === op ? query.args : [query]) {
      if (arg.op === dominant.op) return dominant;
      if (arg.op === neutral || seen.has(arg)) continue;
      seen.add(arg);
      args.push(arg);
    }
  }
  // An OR inside an AND (or an AND or near group inside an OR) that repeats a sibling adds nothing.
  const absorbed = (arg: TrigramQuery): boolean => {
    if (arg.op !== (op === 'and' ? 'or' : 'and') && !(op === 'or' && arg.op === 'near')) return false;
    return 'args' in arg && arg.args.some((sub) => seen.has(sub));
  };
  const kept = args.filter((arg) => !absorbed(arg));
  if (kept.length === 0) return op === 'and' ? MATCH_ALL : MATCH_NONE;
  if (kept.length === 1) return kept[0] as TrigramQuery;
  return { op, args: kept };
}

/** A char above any byte: this ASCII letter in either case (its lower case is the low byte). */
const FREE_LETTER = 0x100;

/** The key char of an ASCII code point in a case-insensitive scope: letters become either-case. */
export function freeLetter(cp: number): number {
  const lower = cp | 0x20;
  return lower >= 0x61 && lower <= 0x7a ? FREE_LETTER | lower : cp;
}

/** The exact bytes a key char stands for: one byte, or both cases of a free letter. */
function bytesOf(key: number): number[] {
  return key & FREE_LETTER ? [key & 0xff, (key & 0xff) ^ 0x20] : [key];
}

/** The trigram at `i`, as an OR of its case variants when it holds free letters. */
function trigramAt(bytes: string, i: number): TrigramQuery {
  const variants: TrigramQuery[] = [];
  for (const a of bytesOf(bytes.charCodeAt(i))) {
    for (const b of bytesOf(bytes.charCodeAt(i + 1))) {
      for (const c of bytesOf(bytes.charCodeAt(i + 2))) variants.push({ op: 'tri', trigram: packTrigram(a, b, c) });
    }
  }
  return variants.length === 1 ? variants[0]! : { op: 'or', args: variants };
}

/**
 * Every trigram of a key string, as a `near` group in byte order (repeats kept: each arg stands for
 * its offset); one trigram alone, or `all` when the string is shorter than three bytes.
 */
function trigramsOf(bytes: string): TrigramQuery {
  if (bytes.length < 3) return MATCH_ALL;
  if (bytes.length === 3) return trigramAt(bytes, 0);
  const tris: TrigramQuery[] = [];
  for (let i = 0; i + 3 <= bytes.length; i++) tris.push(trigramAt(bytes, i));
  return { op: 'near', args: tris };
}

/** A document containing any of `strings` satisfies this; `all` unless every string has a trigram. */
export function anyOfStrings(strings: ReadonlySet<string>): TrigramQuery {
  if (strings.size === 0) return MATCH_NONE;
  if (minLength(strings) < 3) return MATCH_ALL;
  return or([...strings].map(trigramsOf));
}

export function minLength(strings: ReadonlySet<string>): number {
  let min = Infinity;
  for (const s of strings) min = Math.min(min, s.length);
  return min === Infinity ? 0 : min;
}
