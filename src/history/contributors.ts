/**
 * Contributors of one repository's default branch, as `git shortlog -sne HEAD` counts them:
 * commits per author name and e-mail, most commits first. Feeds GraphQL `repository.contributors`.
 */
import type { CommitTable } from './commit-table.js';

export interface ContributorOptions {
  /** Only commits with an author date at or after this, Unix seconds. */
  readonly after?: number;
  /** Only commits that changed a path containing this (case-insensitive). */
  readonly path?: string;
}

export interface Contributor {
  readonly name: string;
  readonly email: string;
  readonly count: number;
}

export function contributorsOf(source: { readonly table: CommitTable; readonly head: Uint8Array }, options: ContributorOptions): Contributor[] {
  const { table, head } = source;
  const scope = Uint8Array.from(head);
  if (options.path !== undefined && options.path !== '') {
    const touched = new Uint8Array(table.size);
    table.paths.markContaining(options.path.toLowerCase(), touched);
    for (let i = 0; i < scope.length; i++) scope[i]! &= touched[i]!;
  }
  const counts = new Map<string, Contributor>();
  for (let i = 0; i < table.size; i++) {
    if (scope[i] === 0) continue;
    const c = table.commits[i]!;
    if (options.after !== undefined && c.authorDate < options.after) continue;
    const key = `${c.authorName}\0${c.authorEmail}`;
    const seen = counts.get(key);
    counts.set(key, { name: c.authorName, email: c.authorEmail, count: (seen?.count ?? 0) + 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
