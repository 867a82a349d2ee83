/**
 * Repository results: type:repo queries and queries made only of repo: filters. A pattern term
 * matches a repository when it matches its name (plain text here, other regexes in the pool).
 */
import { evaluateAtoms, matchAtoms, type AtomBounds, type AtomExpr, type TextMatchRunner } from '../history/text-atoms.js';
import type { BasicQuery, PatternExpr } from '../query/ast.js';
import type { RepoMatch } from '../model/result.js';
import { planLiteral, planRegex, type RegexPlan } from '../regex/index.js';
import type { RepoTarget } from './select-repos.js';

export async function repoMatches(basic: BasicQuery, targets: readonly RepoTarget[], runner: TextMatchRunner, bounds: AtomBounds): Promise<RepoMatch[]> {
  const caseSensitive = basic.filters.caseSensitive;
  const atoms: RegexPlan[] = [];
  const expr = basic.pattern ? numberAtoms(basic.pattern, (value, regexp) => atoms.push(regexp ? planRegex(value, { caseSensitive }) : planLiteral(value, { caseSensitive })) - 1) : null;
  const names = await matchAtoms(runner, { texts: targets.map((t) => t.manifest.repo) }, atoms, bounds);
  return targets
    .filter((_, index) => expr === null || evaluateAtoms(expr, (atom) => names.hit(atom, index)))
    .map((t) => ({
      type: 'repo',
      repository: t.manifest.repo,
      repositoryID: t.manifest.repoId,
      branches: t.revs.length > 0 ? t.revs : [t.manifest.branch],
      fork: t.manifest.fork,
      archived: t.manifest.archived,
    }));
}

function numberAtoms(expr: PatternExpr, add: (value: string, regexp: boolean) => number): AtomExpr {
  if (expr.kind === 'atom') return { op: 'atom', atom: add(expr.value, expr.regexp), negated: expr.negated };
  return { op: expr.kind, args: expr.children.map((child) => numberAtoms(child, add)) };
}
