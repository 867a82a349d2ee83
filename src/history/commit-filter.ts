/**
 * Patterns over commit fields (message, author, committer, changed paths) combined with AND, OR
 * and NOT: what `type:commit` / `type:diff` queries and regex terms of the history tools ask of a
 * commit's metadata. Planned here on the caller's thread; matched through text-atoms.ts, so
 * regular expressions run in the worker pool and never on this thread.
 */
import { createError, isQuarryError } from '../errors.js';
import { planLiteral, planRegex, type RegexPlan } from '../regex/index.js';
import { evaluateAtoms, matchAtoms, type AtomBounds, type AtomExpr, type AtomHits, type TextList, type TextMatchRunner } from './text-atoms.js';

export type CommitField = 'message' | 'author' | 'committer' | 'paths';

export interface CommitFieldAtom {
  readonly field: CommitField;
  readonly plan: RegexPlan;
}

export interface CommitFilter {
  readonly atoms: readonly CommitFieldAtom[];
  readonly expr: AtomExpr;
}

/** Builds a filter atom by atom; `atom` answers the expression node that stands for it. */
export class CommitFilterBuilder {
  private readonly atoms: CommitFieldAtom[] = [];

  constructor(private readonly caseSensitive: boolean) {}

  /** Throws PATTERN_INVALID for a malformed regular expression, naming it. */
  atom(field: CommitField, pattern: string, options: { regex: boolean; negated?: boolean }): AtomExpr {
    const plan = options.regex ? planOrExplain(pattern, this.caseSensitive) : planLiteral(pattern, { caseSensitive: this.caseSensitive });
    this.atoms.push({ field, plan });
    return { op: 'atom', atom: this.atoms.length - 1, negated: options.negated ?? false };
  }

  /** The filter of every expression given, ANDed; null when there is nothing to test. */
  build(parts: readonly AtomExpr[]): CommitFilter | null {
    if (parts.length === 0) return null;
    return { atoms: this.atoms, expr: parts.length === 1 ? parts[0]! : { op: 'and', args: parts } };
  }
}

function planOrExplain(pattern: string, caseSensitive: boolean): RegexPlan {
  try {
    return planRegex(pattern, { caseSensitive });
  } catch (err) {
    if (!isQuarryError(err, 'PATTERN_INVALID')) throw err;
    throw createError('PATTERN_INVALID', `invalid regular expression ${JSON.stringify(pattern)}: ${err.message}`, { pattern });
  }
}

/** `values` ORed as one expression (none: null). */
export function anyOf(values: readonly AtomExpr[]): AtomExpr | null {
  if (values.length === 0) return null;
  return values.length === 1 ? values[0]! : { op: 'or', args: values };
}

/**
 * Narrows `scope` (1 = candidate, by position in the field texts) to the commits the filter
 * accepts. Throws TIMEOUT when the pool cannot match every candidate before the deadline.
 */
export async function applyCommitFilter(filter: CommitFilter, fieldTexts: (field: CommitField) => TextList, scope: Uint8Array, runner: TextMatchRunner, bounds: AtomBounds): Promise<Uint8Array> {
  const byField = new Map<CommitField, number[]>();
  filter.atoms.forEach((atom, index) => byField.set(atom.field, [...(byField.get(atom.field) ?? []), index]));
  const where = new Map<number, { hits: AtomHits; slot: number }>();
  await Promise.all([...byField].map(async ([field, indices]) => {
    const hits = await matchAtoms(runner, fieldTexts(field), indices.map((i) => filter.atoms[i]!.plan), { ...bounds, scope });
    indices.forEach((atom, slot) => where.set(atom, { hits, slot }));
  }));
  const kept = new Uint8Array(scope.length);
  for (let i = 0; i < scope.length; i++) {
    if (scope[i] !== 1) continue;
    kept[i] = evaluateAtoms(filter.expr, (atom) => {
      const { hits, slot } = where.get(atom)!;
      return hits.hit(slot, i);
    }) ? 1 : 0;
  }
  return kept;
}
