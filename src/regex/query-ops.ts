/**
 * Builds TrigramQuery values in simplified form: AND/OR flattened and deduplicated, `all`/`none`
 * absorbed, `x AND (x OR y)` reduced to `x`. Works on byte strings (one char per byte, 0-255).
 */

import { MATCH_ALL, MATCH_NONE, packTrigram, trigramQueryToString, type TrigramQuery } from '../model/trigram.js';

const keys = new WeakMap<TrigramQuery, string>();

function keyOf(q: TrigramQuery): string {
  let key = keys.get(q);
  if (key === undefined) {
    key = trigramQueryToString(q);
    keys.set(q, key);
  }
  return key;
}

export function and(...queries: readonly TrigramQuery[]): TrigramQuery {
  return combine('and', queries);
}

export function or(...queries: readonly TrigramQuery[]): TrigramQuery {
  return combine('or', queries);
}

function combine(op: 'and' | 'or', queries: readonly TrigramQuery[]): TrigramQuery {
  const neutral = op === 'and' ? 'all' : 'none';
  const dominant = op === 'and' ? MATCH_NONE : MATCH_ALL;
  const args: TrigramQuery[] = [];
  const seen = new Set<string>();
  for (const query of queries) {
    for (const arg of query.op === op ? query.args : [query]) {
      if (arg.op === dominant.op) return dominant;
      if (arg.op === neutral || seen.has(keyOf(arg))) continue;
      seen.add(keyOf(arg));
      args.push(arg);
    }
  }
  // An OR inside an AND (or an AND inside an OR) that repeats a sibling adds nothing.
  const inner = op === 'and' ? 'or' : 'and';
  const kept = args.filter((arg) => arg.op !== inner || !arg.args.some((sub) => seen.has(keyOf(sub))));
  if (kept.length === 0) return op === 'and' ? MATCH_ALL : MATCH_NONE;
  if (kept.length === 1) return kept[0] as TrigramQuery;
  return { op, args: kept };
}

/** AND of every trigram of a byte string already folded; `all` when it is shorter than three bytes. */
export function trigramsOf(bytes: string): TrigramQuery {
  const tris: TrigramQuery[] = [];
  for (let i = 0; i + 3 <= bytes.length; i++) {
    tris.push({ op: 'tri', trigram: packTrigram(bytes.charCodeAt(i), bytes.charCodeAt(i + 1), bytes.charCodeAt(i + 2)) });
  }
  return and(...tris);
}

/** A document containing any of `strings` satisfies this; `all` unless every string has a trigram. */
export function anyOfStrings(strings: ReadonlySet<string>): TrigramQuery {
  if (strings.size === 0) return MATCH_NONE;
  if (minLength(strings) < 3) return MATCH_ALL;
  return or(...[...strings].map(trigramsOf));
}

export function minLength(strings: ReadonlySet<string>): number {
  let min = Infinity;
  for (const s of strings) min = Math.min(min, s.length);
  return min === Infinity ? 0 : min;
}
