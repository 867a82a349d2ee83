/**
 * The query's pattern as `type:diff` applies it to changed lines: each atom compiled by the diff
 * matcher (regexp or literal as the pattern type says, case rules of the query), the positive
 * atoms' ranges merged for highlighting, and the boolean structure checked per commit.
 */
import { createError } from '../errors.js';
import type { CommitDiff, DiffLine } from '../history/diff-model.js';
import { compileDiffPattern, type LineMatcher, type LineRange } from '../history/diff-match.js';
import type { PatternAtom, PatternExpr } from '../query/ast.js';

export interface DiffTerms {
  /** Every positive atom's matches in a line, sorted, overlaps merged. */
  readonly matcher: LineMatcher;
  /** Set when the pattern is more than one positive atom: AND, OR and NOT over a commit's changed lines. */
  readonly accept?: (diff: CommitDiff) => boolean;
}

export interface DiffTermOptions {
  readonly caseSensitive: boolean;
  readonly added: boolean;
  readonly removed: boolean;
}

export function compileDiffTerms(pattern: PatternExpr | null, options: DiffTermOptions): DiffTerms {
  const positive = pattern === null ? [] : atoms(pattern).filter((a) => !a.negated);
  if (pattern === null || positive.length === 0) {
    throw createError('QUERY_UNSUPPORTED', 'type:diff needs a pattern to find in added or removed lines, for example `type:diff author:alice fixme`');
  }
  const matchers = new Map<PatternAtom, LineMatcher>(atoms(pattern).map((a) => [a, compileDiffPattern(a.value, { regex: a.regexp, caseSensitive: options.caseSensitive })]));
  const highlighters = positive.map((a) => matchers.get(a)!);
  const matcher: LineMatcher = { ranges: (line) => mergeRanges(highlighters.flatMap((m) => m.ranges(line))) };
  if (pattern.kind === 'atom') return { matcher };
  const kinds = changedKinds(options);
  return {
    matcher,
    accept(diff) {
      const lines = diff.files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => kinds.has(l.kind))));
      const found = new Map<PatternAtom, boolean>();
      const present = (atom: PatternAtom): boolean => {
        let hit = found.get(atom);
        if (hit === undefined) {
          hit = lines.some((l: DiffLine) => matchers.get(atom)!.ranges(l.text).length > 0);
          found.set(atom, hit);
        }
        return hit;
      };
      return evaluate(pattern, present);
    },
  };
}

/** The kinds of lines searched: select:commit.diff.added or .removed picks one, otherwise both. */
function changedKinds(options: DiffTermOptions): Set<string> {
  const both = options.added === options.removed;
  return new Set([...(both || options.added ? ['+'] : []), ...(both || options.removed ? ['-'] : [])]);
}

function evaluate(expr: PatternExpr, present: (atom: PatternAtom) => boolean): boolean {
  if (expr.kind === 'atom') return present(expr) !== expr.negated;
  return expr.kind === 'and' ? expr.children.every((c) => evaluate(c, present)) : expr.children.some((c) => evaluate(c, present));
}

function atoms(expr: PatternExpr): PatternAtom[] {
  return expr.kind === 'atom' ? [expr] : expr.children.flatMap(atoms);
}

function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
