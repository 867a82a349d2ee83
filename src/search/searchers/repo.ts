/**
 * The repository searcher: type:repo queries and queries made only of repo: filters. A pattern
 * term matches a repository when it matches its name (plain text here, other regexes in the pool).
 */
import { evaluateAtoms, matchAtoms, type AtomExpr, type TextMatchRunner } from '../../history/text-atoms.js';
import type { BasicQuery, PatternExpr } from '../../query/ast.js';
import type { RepoMatch } from '../../model/result.js';
import { planLiteral, planRegex, type RegexPlan } from '../../regex/index.js';
import { NOTHING_FOUND, type SearchBounds, type Searcher } from '../searcher.js';
import type { RepoTarget } from '../select-repos.js';
import { refuseCommitOnlyFilters } from './commit-only-filters.js';

export function createRepoSearcher(runner: TextMatchRunner): Searcher {
  return {
    section: 'repositories',
    accepts: isRepoSearch,
    start(scope) {
      const listed = new Set<number>();
      return {
        async run(basic, targets) {
          refuseCommitOnlyFilters(basic);
          const found = await repoMatches(basic, targets, runner, scope.bounds);
          // Every alternative's hits count; a repository an earlier one listed is not listed twice.
          const matches = found.filter((r) => !listed.has(r.repositoryID) && listed.add(r.repositoryID));
          return { ...NOTHING_FOUND, matches, matchCount: found.length };
        },
      };
    },
  };
}

function isRepoSearch(basic: BasicQuery): boolean {
  const { types, repos, files, langs } = basic.filters;
  if (types.includes('repo')) return true;
  return basic.pattern === null && repos.length > 0 && files.length === 0 && langs.length === 0 && types.length === 0;
}

async function repoMatches(basic: BasicQuery, targets: readonly RepoTarget[], runner: TextMatchRunner, bounds: SearchBounds): Promise<RepoMatch[]> {
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
