/**
 * The trigram query a regex implies: every document that contains a match satisfies it.
 *
 * Design (Russ Cox, "Regular Expression Matching with a Trigram Index"; codesearch index/regexp.go):
 * each sub-expression is summarised as an Info (trigram-info.ts): whether it can match empty, the
 * exact set of strings it matches (when small), sets of possible prefixes and suffixes, and a query
 * already known to hold. Concatenation crosses exact sets (and prefix/suffix sets at the seam),
 * alternation unites them and ORs the queries, repetition keeps only what the first and last copy
 * guarantee. Sets are capped (7 exact strings, 20 prefixes/suffixes, 64 strings across a seam);
 * whatever no longer fits is turned into trigrams and ANDed into the query, or dropped, so
 * information is lost only as "match more".
 *
 * Strings hold one char per UTF-8 byte. An ASCII letter in a case-insensitive scope is one
 * "either case" char (query-ops.ts: FREE_LETTER), so folding never multiplies strings; the trigrams
 * it lands in become an OR of their case variants, since the index keeps exact case. Other code
 * points in such scopes add their other cases (the JS engine's Unicode simple folding: `é`/`É`,
 * `k`/KELVIN SIGN) as alternatives. Classes of up to 100 code points become exact sets; larger classes,
 * Unicode properties and backreferences match "anything"; anchors and look-around match the empty
 * string, though a positive look-around still requires its own query (its text is in the document).
 *
 * The contract is no false negatives: the query may accept documents without matches, never reject
 * one with a match. test/regex/no-false-negatives.test.ts checks it against the JS engine.
 */

import type { TrigramQuery } from '../model/trigram.js';
import type { RegexNode } from './ast.js';
import { orbitOf } from './case-fold.js';
import { codePointsOf, sizeOf } from './charset.js';
import { freeLetter } from './query-ops.js';
import { alternate, ANY_CHAR, ANY_MATCH, concatAll, EMPTY_STRING, exactly, finalQuery, NO_MATCH, repeated, requiring, type Info } from './trigram-info.js';

/** Classes larger than this are treated as "any character". */
const MAX_CLASS_SIZE = 100;
/** Copies of a repeated expression worth analysing; more add little. */
const MAX_COPIES = 3;

export function regexTrigramQuery(root: RegexNode): TrigramQuery {
  return finalQuery(analyze(root));
}

function analyze(node: RegexNode): Info {
  switch (node.kind) {
    case 'empty':
    case 'assert':
      return EMPTY_STRING;
    case 'look':
      return node.negated ? EMPTY_STRING : requiring(EMPTY_STRING, finalQuery(analyze(node.body)));
    case 'backref':
      return ANY_MATCH;
    case 'literal':
      return exactly(literalStrings(node.cp, node.fold));
    case 'class':
      if (node.props.length > 0) return ANY_CHAR;
      if (node.set.length === 0) return NO_MATCH;
      if (sizeOf(node.set) > MAX_CLASS_SIZE) return ANY_CHAR;
      return exactly(new Set(codePointsOf(node.set).map((cp) => utf8Key(cp, node.fold))));
    case 'group':
      return analyze(node.body);
    case 'concat':
      return analyzeConcat(node.items);
    case 'alt':
      return alternate(node.items.map(analyze));
    case 'repeat':
      return analyzeRepeat(node.body, node.min, node.max);
  }
}

/** Runs of literals with a single spelling become one string first: long literals stay linear. */
function analyzeConcat(items: readonly RegexNode[]): Info {
  const parts: Info[] = [];
  let run = '';
  for (const item of items) {
    const strings = item.kind === 'literal' ? literalStrings(item.cp, item.fold) : null;
    if (strings !== null && strings.size === 1) {
      run += [...strings][0] as string;
      continue;
    }
    if (run !== '') parts.push(exactly(new Set([run])));
    run = '';
    parts.push(analyze(item));
  }
  if (run !== '') parts.push(exactly(new Set([run])));
  return concatAll(parts);
}

function literalStrings(cp: number, fold: boolean): Set<string> {
  return new Set((fold ? orbitOf(cp) : [cp]).map((c) => utf8Key(c, fold)));
}

function analyzeRepeat(body: RegexNode, min: number, max: number): Info {
  if (max === 0) return EMPTY_STRING;
  if (min === 0) return max === 1 ? alternate([analyze(body), EMPTY_STRING]) : ANY_MATCH;
  const info = concatAll(Array.from({ length: Math.min(min, MAX_COPIES) }, () => analyze(body)));
  return min > MAX_COPIES || max > min ? repeated(info) : info;
}

/** The code point's UTF-8 bytes, one char per byte; an ASCII letter under `fold` is either case. */
function utf8Key(cp: number, fold: boolean): string {
  const bytes =
    cp < 0x80
      ? [fold ? freeLetter(cp) : cp]
      : cp < 0x800
      ? [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)]
      : cp < 0x10000
        ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return String.fromCharCode(...bytes);
}
