/**
 * The commit metadata a `type:commit` or `type:diff` query asks for, as one commit filter:
 * author:, committer: and message: values (regular expressions, negatable) and, for type:commit,
 * the query's pattern over messages. Planning only; the history service matches it.
 */
import { anyOf, CommitFilterBuilder, type CommitField, type CommitFilter } from '../history/commit-filter.js';
import type { AtomExpr } from '../history/text-atoms.js';
import type { BasicQuery, NegatableValue, PatternExpr } from '../query/ast.js';
import { planLiteral, planRegex, type RegexPlan } from '../regex/index.js';

export interface CommitQueryTerms {
  readonly filter: CommitFilter | null;
  /** The pattern's positive atoms, whose matches are highlighted in messages. */
  readonly highlight: readonly RegexPlan[];
}

export function commitQueryTerms(basic: BasicQuery, withPattern: boolean): CommitQueryTerms {
  const caseSensitive = basic.filters.caseSensitive;
  const builder = new CommitFilterBuilder(caseSensitive);
  const commit = basic.filters.commit;
  const values = (field: CommitField, list: readonly NegatableValue[] | undefined): AtomExpr[] =>
    (list ?? []).map((value) => builder.atom(field, value.pattern, { regex: true, negated: value.negated }));
  const parts: AtomExpr[] = [...values('author', commit?.authors), ...values('committer', commit?.committers), ...values('message', commit?.messages)];
  const pattern = withPattern && basic.pattern ? messagePattern(basic.pattern, builder) : null;
  if (pattern) parts.push(pattern);
  const highlight = withPattern && basic.pattern ? positiveAtoms(basic.pattern).map((atom) => (atom.regexp ? planRegex(atom.value, { caseSensitive }) : planLiteral(atom.value, { caseSensitive }))) : [];
  return { filter: builder.build(parts), highlight };
}

function messagePattern(expr: PatternExpr, builder: CommitFilterBuilder): AtomExpr {
  if (expr.kind === 'atom') return builder.atom('message', expr.value, { regex: expr.regexp, negated: expr.negated });
  const args = expr.children.map((child) => messagePattern(child, builder));
  return expr.kind === 'and' ? { op: 'and', args } : anyOf(args)!;
}

function positiveAtoms(expr: PatternExpr): { value: string; regexp: boolean }[] {
  if (expr.kind === 'atom') return expr.negated ? [] : [expr];
  return expr.children.flatMap(positiveAtoms);
}
