/**
 * What the trigram analysis knows about a sub-expression (codesearch's regexpInfo) and how that
 * combines under concatenation, alternation and repetition. Strings are folded UTF-8 byte strings.
 */

import { MATCH_ALL, MATCH_NONE, type TrigramQuery } from '../model/trigram.js';
import { and, anyOfStrings, minLength, or } from './query-ops.js';

export interface Info {
  /** The expression can match the empty string. */
  readonly emptyable: boolean;
  /** Every string it matches, when that set is known and small; null otherwise. */
  readonly exact: ReadonlySet<string> | null;
  /** Every match starts with one of these (only meaningful while `exact` is null). */
  readonly prefix: ReadonlySet<string>;
  /** Every match ends with one of these (only meaningful while `exact` is null). */
  readonly suffix: ReadonlySet<string>;
  /** Every document holding a match satisfies this. */
  readonly match: TrigramQuery;
}

/** Exact sets past this size, or whose strings reach 4 bytes, are folded into the query. */
const MAX_EXACT = 7;
/** Prefix and suffix sets past this size are cut down to shorter strings. */
const MAX_SET = 20;
/** A seam between two sub-expressions adds an OR of at most this many strings to the query. */
const MAX_SEAM = 64;

const NOTHING: ReadonlySet<string> = new Set([''] as const);

export const EMPTY_STRING: Info = { emptyable: true, exact: NOTHING, prefix: NOTHING, suffix: NOTHING, match: MATCH_ALL };
export const ANY_CHAR: Info = { emptyable: false, exact: null, prefix: NOTHING, suffix: NOTHING, match: MATCH_ALL };
export const ANY_MATCH: Info = { ...ANY_CHAR, emptyable: true };
export const NO_MATCH: Info = { emptyable: false, exact: new Set(), prefix: new Set(), suffix: new Set(), match: MATCH_NONE };

export function exactly(strings: ReadonlySet<string>): Info {
  return simplify({ emptyable: strings.has(''), exact: strings, prefix: NOTHING, suffix: NOTHING, match: MATCH_ALL }, false);
}

export function requiring(info: Info, query: TrigramQuery): Info {
  return { ...info, match: and([info.match, query]) };
}

const prefixOf = (i: Info): ReadonlySet<string> => i.exact ?? i.prefix;
const suffixOf = (i: Info): ReadonlySet<string> => i.exact ?? i.suffix;

function cross(xs: ReadonlySet<string>, ys: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of xs) for (const y of ys) out.add(x + y);
  return out;
}

function unite(xs: ReadonlySet<string>, ys: ReadonlySet<string>): Set<string> {
  return new Set([...xs, ...ys]);
}

/**
 * The parts in sequence. Their queries are set aside and ANDed once at the end (AND is associative),
 * so a long sequence costs linear time instead of re-flattening a growing AND at every step.
 */
export function concatAll(parts: readonly Info[]): Info {
  const matches: TrigramQuery[] = [];
  const setAside = (info: Info): Info => {
    matches.push(info.match);
    return { ...info, match: MATCH_ALL };
  };
  let acc = setAside(parts[0] ?? EMPTY_STRING);
  for (const part of parts.slice(1)) acc = setAside(concat(acc, setAside(part)));
  return { ...acc, match: and(matches) };
}

function concat(x: Info, y: Info): Info {
  let match = and([x.match, y.match]);
  if (x.exact !== null && y.exact !== null) {
    return simplify({ emptyable: x.emptyable && y.emptyable, exact: cross(x.exact, y.exact), prefix: NOTHING, suffix: NOTHING, match }, false);
  }
  const prefix = x.exact !== null ? cross(x.exact, y.prefix) : x.emptyable ? unite(x.prefix, prefixOf(y)) : x.prefix;
  const suffix = y.exact !== null ? cross(x.suffix, y.exact) : y.emptyable ? unite(y.suffix, suffixOf(x)) : y.suffix;
  // Where x's end meets y's start, some suffix-prefix pair occurs contiguously.
  if (x.exact === null && y.exact === null && x.suffix.size * y.prefix.size <= MAX_SEAM) {
    if (minLength(x.suffix) + minLength(y.prefix) >= 3) match = and([match, anyOfStrings(cross(x.suffix, y.prefix))]);
  }
  return simplify({ emptyable: x.emptyable && y.emptyable, exact: null, prefix, suffix, match }, false);
}

/** Any one of the alternatives. */
export function alternate(alternatives: readonly Info[]): Info {
  const emptyable = alternatives.some((a) => a.emptyable);
  const exacts = alternatives.map((a) => a.exact);
  if (exacts.every((e) => e !== null)) {
    const exact = new Set(exacts.flatMap((e) => [...(e as ReadonlySet<string>)]));
    return simplify({ emptyable, exact, prefix: NOTHING, suffix: NOTHING, match: or(alternatives.map((a) => a.match)) }, false);
  }
  const prefix = new Set(alternatives.flatMap((a) => [...prefixOf(a)]));
  const suffix = new Set(alternatives.flatMap((a) => [...suffixOf(a)]));
  return simplify({ emptyable, exact: null, prefix, suffix, match: or(alternatives.map(withExact)) }, false);
}

/** One or more repetitions: the ends stay, but the exact set is gone. */
export function repeated(x: Info): Info {
  if (x.exact === null) return x;
  return simplify({ ...x, exact: null, prefix: x.exact, suffix: x.exact, match: withExact(x) }, false);
}

/** The query a whole expression (or a look-around body) contributes. */
export function finalQuery(info: Info): TrigramQuery {
  return withExact(simplify(info, true));
}

function withExact(info: Info): TrigramQuery {
  return info.exact === null ? info.match : and([info.match, anyOfStrings(info.exact)]);
}

function simplify(info: Info, force: boolean): Info {
  let { exact, prefix, suffix, match } = info;
  if (exact !== null) {
    const min = minLength(exact);
    if (exact.size > MAX_EXACT || (min >= 3 && force) || min >= 4) {
      match = and([match, anyOfStrings(exact)]);
      prefix = new Set([...exact].map((s) => (s.length < 3 ? s : s.slice(0, 2))));
      suffix = new Set([...exact].map((s) => (s.length < 3 ? s : s.slice(-2))));
      exact = null;
    }
  }
  if (exact === null) {
    match = and([match, anyOfStrings(prefix), anyOfStrings(suffix)]);
    prefix = trimSet(prefix, false);
    suffix = trimSet(suffix, true);
  }
  return { emptyable: info.emptyable, exact, prefix, suffix, match };
}

/**
 * Once their trigrams are in the query, prefixes (suffixes) only matter for what a neighbour adds:
 * keep at most two bytes, fewer while the set is too large, and drop strings another one covers.
 */
function trimSet(set: ReadonlySet<string>, isSuffix: boolean): ReadonlySet<string> {
  let strings = [...set];
  for (let n = 3; n === 3 || strings.length > MAX_SET; n--) {
    const cut = strings.map((s) => (s.length < n ? s : isSuffix ? s.slice(s.length - n + 1) : s.slice(0, n - 1)));
    strings = [...new Set(cut)];
  }
  const sortKey = (s: string): string => (isSuffix ? [...s].reverse().join('') : s);
  strings.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  const kept: string[] = [];
  for (const s of strings) {
    const last = kept[kept.length - 1];
    if (last === undefined || !(isSuffix ? s.endsWith(last) : s.startsWith(last))) kept.push(s);
  }
  return new Set(kept);
}
