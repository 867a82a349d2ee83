/**
 * Repository selection for one basic query: repo:, -repo:, fork: and archived: prune whole
 * repositories before any shard task runs, and say what they excluded. repo: patterns that are
 * plain text (what Sourcegraph clients send) are matched here; other regexes by the worker pool.
 */
import { matchAtoms, type AtomBounds, type TextMatchRunner } from '../history/text-atoms.js';
import type { Filters, YesNoOnly } from '../query/ast.js';
import type { Manifest } from '../index/manifest.js';
import type { SkippedNotice } from '../model/result.js';
import { planRegex } from '../regex/index.js';

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

/** repo: patterns are RE2 regular expressions, case-insensitive, unanchored. */
export async function selectRepos(manifests: readonly Manifest[], filters: Filters, runner: TextMatchRunner, bounds: AtomBounds): Promise<RepoSelection> {
  const atoms = filters.repos.map((r) => planRegex(r.pattern, { caseSensitive: false }));
  const names = await matchAtoms(runner, { texts: manifests.map((m) => m.repo) }, atoms, bounds);
  const include = filters.repos.flatMap((r, atom) => (r.negated ? [] : [atom]));
  const exclude = filters.repos.flatMap((r, atom) => (r.negated ? [atom] : []));
  const revs = [...include.flatMap((atom) => filters.repos[atom]!.revs), ...filters.revs];
  const targets: RepoTarget[] = [];
  let forks = 0;
  let archived = 0;
  for (const [index, manifest] of manifests.entries()) {
    if (!include.every((atom) => names.hit(atom, index)) || exclude.some((atom) => names.hit(atom, index))) continue;
    if (!admits(filters.fork ?? 'no', manifest.fork)) {
      forks += manifest.fork ? 1 : 0;
      continue;
    }
    if (!admits(filters.archived ?? 'no', manifest.archived)) {
      archived += manifest.archived ? 1 : 0;
      continue;
    }
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
