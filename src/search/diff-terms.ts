/**
 * The query's pattern as `type:diff` applies it to changed lines, as plain data for the worker
 * that matches them: each atom planned like a diff_search pattern (regexp or literal as the
 * pattern type says, case rules of the query), the positive atoms' ranges merged for
 * highlighting, and the boolean structure checked per commit. Planning only, no matching.
 */
import { createError } from '../errors.js';
import { planDiffAtom, type DiffExpr, type DiffPattern } from '../history/diff-match.js';
import type { PatternAtom, PatternExpr } from '../query/ast.js';

export interface DiffTermOptions {
  readonly caseSensitive: boolean;
}

export function compileDiffTerms(pattern: PatternExpr | null, options: DiffTermOptions): DiffPattern {
  const all = pattern === null ? [] : atoms(pattern);
  if (pattern === null || !all.some((a) => !a.negated)) {
    throw createError('QUERY_UNSUPPORTED', 'type:diff needs a pattern to find in added or removed lines, for example `type:diff author:alice fixme`');
  }
  const plans = all.map((a) => planDiffAtom(a.value, { regex: a.regexp, caseSensitive: options.caseSensitive }));
  const highlight = all.flatMap((a, i) => (a.negated ? [] : [i]));
  // A single positive atom needs no per-commit test: a commit matches when a line does.
  const expr = pattern.kind === 'atom' ? null : toExpr(pattern, all);
  return { specs: plans.map((p) => p.spec), highlight, merge: true, expr, trigrams: plans.map((p) => p.trigrams), literal: plans.map((p) => p.literal) };
}

function toExpr(expr: PatternExpr, all: readonly PatternAtom[]): DiffExpr {
  if (expr.kind === 'atom') return { op: 'atom', atom: all.indexOf(expr), negated: expr.negated };
  return { op: expr.kind, args: expr.children.map((c) => toExpr(c, all)) };
}

function atoms(expr: PatternExpr): PatternAtom[] {
  return expr.kind === 'atom' ? [expr] : expr.children.flatMap(atoms);
}
