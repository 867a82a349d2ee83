/**
 * Collects the filter clauses of one basic query into `Filters`, enforcing the rules that span
 * several clauses: single-use filters, and rev: only together with repo: and never with repo:x@rev.
 */
import type { CommitFilters, Filters, NegatableValue, PatternType, RepoFilter, ResultType } from './ast.js';
import type { FilterClause } from './filter-values.js';
import { syntaxError } from './syntax-error.js';

type SingleUseKind = 'rev' | 'case' | 'count' | 'timeout' | 'select' | 'fork' | 'archived' | 'before' | 'after';
const SINGLE_USE: ReadonlySet<FilterClause['kind']> = new Set<SingleUseKind>([
  'rev', 'case', 'count', 'timeout', 'select', 'fork', 'archived', 'before', 'after',
]);

type Draft<T> = { -readonly [K in keyof T]: T[K] };

export function buildFilters(clauses: readonly FilterClause[], patternType: PatternType): Filters {
  checkSingleUse(clauses);
  checkRevisions(clauses);
  const repos: RepoFilter[] = [];
  const files: { pattern: string; negated: boolean }[] = [];
  const langs: { name: string; negated: boolean }[] = [];
  const types: ResultType[] = [];
  const commit: Draft<CommitFilters> & { authors: NegatableValue[]; committers: NegatableValue[]; messages: NegatableValue[] } = {
    authors: [], committers: [], messages: [], before: null, after: null,
  };
  let hasCommit = false;
  const filters: Draft<Filters> = {
    repos, revs: [], files, langs, caseSensitive: false, types, count: null, timeoutMs: null,
    select: null, fork: null, archived: null, patternType,
  };
  for (const clause of clauses) {
    switch (clause.kind) {
      case 'repo': repos.push(clause.repo); break;
      case 'rev': filters.revs = clause.revs; break;
      case 'file': files.push({ pattern: clause.pattern, negated: clause.negated }); break;
      case 'lang': langs.push({ name: clause.name, negated: clause.negated }); break;
      case 'case': filters.caseSensitive = clause.caseSensitive; break;
      case 'type': if (!types.includes(clause.type)) types.push(clause.type); break;
      case 'count': filters.count = clause.count; break;
      case 'timeout': filters.timeoutMs = clause.timeoutMs; break;
      case 'select': filters.select = clause.select; break;
      case 'fork': filters.fork = clause.value; break;
      case 'archived': filters.archived = clause.value; break;
      case 'author': case 'committer': case 'message':
        commit[`${clause.kind}s`].push({ pattern: clause.pattern, negated: clause.negated });
        hasCommit = true;
        break;
      case 'before': case 'after': commit[clause.kind] = clause.date; hasCommit = true; break;
    }
  }
  return hasCommit ? { ...filters, commit } : filters;
}

function checkSingleUse(clauses: readonly FilterClause[]): void {
  const seen = new Set<FilterClause['kind']>();
  for (const clause of clauses) {
    if (!SINGLE_USE.has(clause.kind)) continue;
    if (seen.has(clause.kind)) throw syntaxError(`${clause.kind}: may be used only once`, clause.position);
    seen.add(clause.kind);
  }
}

/** Reference §2.7: rev: "can only be used in conjunction with repo:"; repo:x@a rev:b is ambiguous. */
function checkRevisions(clauses: readonly FilterClause[]): void {
  const rev = clauses.find((clause) => clause.kind === 'rev');
  if (rev === undefined) return;
  const repos = clauses.filter((clause) => clause.kind === 'repo' && !clause.repo.negated);
  if (repos.length === 0) throw syntaxError('rev: requires a repo: filter', rev.position);
  const withRevs = repos.find((clause) => clause.kind === 'repo' && clause.repo.revs.length > 0);
  if (withRevs !== undefined) {
    throw syntaxError('rev: cannot be combined with repo:…@revision', Math.max(rev.position, withRevs.position));
  }
}
