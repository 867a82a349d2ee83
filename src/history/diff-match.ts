/**
 * A diff search pattern as plain clone-safe data, planned by src/regex exactly as the search
 * service plans content patterns. Only planning happens here: the lines are matched in a worker
 * (diff-line-scan.ts through the pool), never on the main thread.
 */
import { createError } from '../errors.js';
import type { PatternSpec } from '../matcher/matcher.js';
import type { TrigramQuery } from '../model/trigram.js';
import { planLiteral, planRegex } from '../regex/index.js';
import type { AtomExpr } from './text-atoms.js';

export interface DiffPatternOptions {
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

/** [start, end) code point offsets of the matches in one line. */
export type LineRange = readonly [number, number];

/** AND, OR and NOT over the atoms, tested on all of one commit's searched lines at once. */
export type DiffExpr = AtomExpr;

export interface DiffPattern {
  /** Atom i is matched by specs[i]. */
  readonly specs: readonly PatternSpec[];
  /** The atoms whose matches are reported as a line's ranges. */
  readonly highlight: readonly number[];
  /** Sort the reported ranges and join those that overlap or touch (the query language's highlighting). */
  readonly merge: boolean;
  /** Which commits with matching lines are kept; null keeps them all. */
  readonly expr: DiffExpr | null;
  /** Atom i matches only in a line holding what trigrams[i] asks for: the history index's narrowing. */
  readonly trigrams: readonly TrigramQuery[];
  /**
   * Whether atom i is plain text (no anchors, no look-around): a line it matches in makes any text
   * holding that line match too, so a whole diff it does not match has no line it matches.
   */
  readonly literal: readonly boolean[];
}

export interface DiffAtomPlan {
  readonly spec: PatternSpec;
  readonly trigrams: TrigramQuery;
  /** The pattern is plain text. */
  readonly literal: boolean;
}

/** One pattern, its matches reported as the matcher finds them. Throws PATTERN_INVALID for an empty or malformed pattern. */
export function compileDiffPattern(pattern: string, options: DiffPatternOptions): DiffPattern {
  const atom = planDiffAtom(pattern, options);
  return { specs: [atom.spec], highlight: [0], merge: false, expr: null, trigrams: [atom.trigrams], literal: [atom.literal] };
}

/** Throws PATTERN_INVALID for an empty or malformed pattern. */
export function planDiffAtom(pattern: string, options: DiffPatternOptions): DiffAtomPlan {
  if (pattern === '') throw createError('PATTERN_INVALID', 'the diff search pattern is empty: give the text or regular expression to find in changed lines');
  const plan = options.regex ? planRegex(pattern, { caseSensitive: options.caseSensitive }) : planLiteral(pattern, { caseSensitive: options.caseSensitive });
  return { spec: plan.spec, trigrams: plan.trigrams, literal: plan.literal !== null };
}
