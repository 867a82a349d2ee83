/**
 * Repository selection for one basic query: repo:, -repo:, fork: and archived: prune whole
 * repositories before any worker is involved, and say what they excluded.
 */
import type { Filters, YesNoOnly } from '../query/ast.js';
import type { Manifest } from '../index/manifest.js';
import type { SkippedNotice } from '../model/result.js';
import { repoRegExp } from './plan.js';

export interface RepoTarget {
  readonly manifest: Manifest;
  /** Revisions asked for with repo:x@rev or rev:; empty = the indexed default branch. */
  readonly revs: readonly string[];
}

export interface RepoSelection {
  readonly targets: RepoTarget[];
  /** Repositories that passed repo filters but were excluded by fork:/archived:. */
  readonly excluded: number;
  readonly notices: SkippedNotice[];
}

export function selectRepos(manifests: readonly Manifest[], filters: Filters): RepoSelection {
  const include = filters.repos.filter((r) => !r.negated).map((r) => ({ re: repoRegExp(r.pattern), revs: r.revs }));
  const exclude = filters.repos.filter((r) => r.negated).map((r) => repoRegExp(r.pattern));
  const targets: RepoTarget[] = [];
  let forks = 0;
  let archived = 0;
  for (const manifest of manifests) {
    if (!include.every((r) => r.re.test(manifest.repo)) || exclude.some((re) => re.test(manifest.repo))) continue;
    if (!admits(filters.fork ?? 'no', manifest.fork)) {
      forks += manifest.fork ? 1 : 0;
      continue;
    }
    if (!admits(filters.archived ?? 'no', manifest.archived)) {
      archived += manifest.archived ? 1 : 0;
      continue;
    }
    const revs = [...include.flatMap((r) => r.revs), ...filters.revs];
    targets.push({ manifest, revs });
  }
  return { targets, excluded: forks + archived, notices: notices(forks, archived) };
}

function admits(setting: YesNoOnly, flag: boolean): boolean {
  if (setting === 'only') return flag;
  return setting === 'yes' || !flag;
}

function notices(forks: number, archived: number): SkippedNotice[] {
  return [
    ...exclusion(forks, 'forked', 'repository-fork', 'fork:yes', 'include forked'),
    ...exclusion(archived, 'archived', 'excluded-archive', 'archived:yes', 'include archived'),
  ];
}

function exclusion(count: number, kind: string, reason: SkippedNotice['reason'], filter: string, title: string): SkippedNotice[] {
  if (count === 0) return [];
  return [{
    reason,
    title: `${count} ${kind} ${count === 1 ? 'repository' : 'repositories'} excluded`,
    message: `By default we exclude ${kind} repositories. Include them with \`${filter}\` in your query.`,
    severity: 'info',
    suggested: { title, queryExpression: filter },
  }];
}
