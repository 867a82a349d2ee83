/**
 * Repository results: type:repo queries and queries made only of repo: filters. A pattern term
 * matches a repository when it matches its name.
 */
import type { BasicQuery, PatternExpr } from '../query/ast.js';
import type { RepoMatch } from '../model/result.js';
import { planLiteral, planRegex } from '../regex/index.js';
import type { RepoTarget } from './select-repos.js';

export function repoMatches(basic: BasicQuery, targets: readonly RepoTarget[]): RepoMatch[] {
  const caseSensitive = basic.filters.caseSensitive;
  const test = basic.pattern ? compileNameTest(basic.pattern, caseSensitive) : () => true;
  return targets
    .filter((t) => test(t.manifest.repo))
    .map((t) => ({
      type: 'repo',
      repository: t.manifest.repo,
      repositoryID: t.manifest.repoId,
      branches: t.revs.length > 0 ? t.revs : [t.manifest.branch],
      fork: t.manifest.fork,
      archived: t.manifest.archived,
    }));
}

function compileNameTest(expr: PatternExpr, caseSensitive: boolean): (name: string) => boolean {
  if (expr.kind === 'atom') {
    const plan = expr.regexp ? planRegex(expr.value, { caseSensitive }) : planLiteral(expr.value, { caseSensitive });
    const re = new RegExp(plan.spec.js, plan.spec.caseless ? 'iu' : 'u');
    return (name) => re.test(name) !== expr.negated;
  }
  const parts = expr.children.map((c) => compileNameTest(c, caseSensitive));
  return expr.kind === 'and' ? (name) => parts.every((p) => p(name)) : (name) => parts.some((p) => p(name));
}
