/**
 * The commits a list of revisions names (reference §2.9): branches, tags, full ref names, `HEAD`,
 * commit ids, ref globs (`*refs/heads/*`, `*!refs/heads/release*`) and exclusions (`^v1.0`),
 * resolved against the refs the index recorded; anything else goes to `git rev-parse`.
 */
import { createError } from '../errors.js';
import { resolveRevision } from '../git/mirror.js';
import type { CommitRepoState } from '../index/commits/commit-store.js';
import type { CommitTable } from './commit-table.js';
import { compileRefGlob } from './ref-glob.js';

/** 1 for each commit in scope; no revisions means the default branch. */
export async function revisionScope(table: CommitTable, state: CommitRepoState, gitDir: string, revisions: readonly string[]): Promise<Uint8Array> {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const rev of revisions.length > 0 ? revisions : ['HEAD']) {
    if (rev.startsWith('*')) {
      const negated = rev.startsWith('*!');
      const oids = globRefs(state, rev.slice(negated ? 2 : 1));
      (negated ? exclude : include).push(...oids);
    } else if (rev.startsWith('^')) {
      exclude.push(await resolveOne(table, state, gitDir, rev.slice(1)));
    } else {
      include.push(await resolveOne(table, state, gitDir, rev));
    }
  }
  if (include.length === 0 && revisions.every((r) => r.startsWith('*!') || r.startsWith('^'))) include.push(await resolveOne(table, state, gitDir, 'HEAD'));
  const scope = new Uint8Array(table.size);
  for (const oid of include) orInto(scope, table.reachableFrom(oid));
  for (const oid of exclude) {
    const reach = table.reachableFrom(oid);
    for (let i = 0; i < scope.length; i++) if (reach[i] === 1) scope[i] = 0;
  }
  return scope;
}

async function resolveOne(table: CommitTable, state: CommitRepoState, gitDir: string, rev: string): Promise<string> {
  const name = rev === 'HEAD' ? `refs/heads/${state.defaultBranch}` : rev;
  const known = state.refs[name] ?? state.refs[`refs/heads/${name}`] ?? state.refs[`refs/tags/${name}`];
  if (known !== undefined) return known;
  if (/^[0-9a-f]{40}$/.test(rev) && table.ordinalOf(rev) !== undefined) return rev;
  if (rev === 'HEAD') throw createError('REVISION_NOT_FOUND', 'the repository has no default branch yet', { rev });
  const oid = await resolveRevision(gitDir, rev);
  if (table.ordinalOf(oid) === undefined) throw createError('REVISION_NOT_FOUND', `revision ${rev} is not reachable from any branch or tag`, { rev });
  return oid;
}

function globRefs(state: CommitRepoState, glob: string): string[] {
  const matches = compileRefGlob(/[*?[]/.test(glob) ? glob : `${glob.replace(/\/$/, '')}/*`);
  return Object.entries(state.refs).filter(([name]) => matches(name)).map(([, oid]) => oid);
}

function orInto(target: Uint8Array, source: Uint8Array): void {
  for (let i = 0; i < target.length; i++) target[i]! |= source[i]!;
}
