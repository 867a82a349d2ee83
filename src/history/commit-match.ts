/**
 * Which commits of one table meet the metadata criteria: values of one kind OR together, kinds
 * AND together, as commit_search and `type:commit` define. Substring terms scan the lower-cased
 * haystacks here; regular expressions and query patterns go through a commit filter, matched in
 * the worker pool. Never runs git.
 */
import { anyOf, applyCommitFilter, CommitFilterBuilder, type CommitField, type CommitFilter } from './commit-filter.js';
import type { CommitTable, Haystack } from './commit-table.js';
import type { AtomBounds, AtomExpr, TextMatchRunner } from './text-atoms.js';

export interface CommitCriteria {
  readonly messageTerms: readonly string[];
  readonly authors: readonly string[];
  readonly committers: readonly string[];
  readonly files: readonly string[];
  /** Commits matching any of these (message, author) are dropped: `-message:`, `-author:`. */
  readonly notMessages?: readonly string[];
  readonly notAuthors?: readonly string[];
  /** Committer date bounds in Unix seconds, inclusive, as git's --since/--until. */
  readonly after?: number;
  readonly before?: number;
  readonly useRegex: boolean;
  readonly caseSensitive?: boolean;
  /** What the query language combines beyond OR lists, tested after everything else. */
  readonly filter?: CommitFilter | null;
}

/** The regular-expression terms of the criteria as one filter, ANDed with its own; planned up front, so a bad pattern fails before any repository is read. */
export function criteriaFilter(criteria: CommitCriteria): CommitFilter | null {
  if (!criteria.useRegex) return criteria.filter ?? null;
  const builder = new CommitFilterBuilder(criteria.caseSensitive ?? false);
  const kind = (field: CommitField, terms: readonly string[], negated: boolean): AtomExpr | null => {
    const atoms = terms.map((term) => builder.atom(field, term, { regex: true, negated }));
    return negated ? (atoms.length === 0 ? null : { op: 'and', args: atoms }) : anyOf(atoms);
  };
  const parts = [
    kind('message', criteria.messageTerms, false), kind('author', criteria.authors, false), kind('committer', criteria.committers, false),
    kind('paths', criteria.files, false), kind('message', criteria.notMessages ?? [], true), kind('author', criteria.notAuthors ?? [], true),
  ].filter((part): part is AtomExpr => part !== null);
  const terms = builder.build(parts);
  const own = criteria.filter ?? null;
  if (terms === null || own === null) return terms ?? own;
  const shift = terms.atoms.length;
  return { atoms: [...terms.atoms, ...own.atoms], expr: { op: 'and', args: [terms.expr, renumber(own.expr, shift)] } };
}

function renumber(expr: AtomExpr, shift: number): AtomExpr {
  return expr.op === 'atom' ? { ...expr, atom: expr.atom + shift } : { op: expr.op, args: expr.args.map((e) => renumber(e, shift)) };
}

/**
 * Matching ordinals in `scope` (1 = candidate), newest committer date first. `filter` is
 * criteriaFilter(criteria), planned once by the caller for every table it searches.
 */
export async function matchCommits(table: CommitTable, criteria: CommitCriteria, filter: CommitFilter | null, scope: Uint8Array, runner: TextMatchRunner, bounds: AtomBounds): Promise<number[]> {
  let hits: Uint8Array = Uint8Array.from(scope);
  if (!criteria.useRegex) {
    const require = (field: CommitField, terms: readonly string[], negate: boolean): void => {
      if (terms.length === 0) return;
      const marked = markSubstrings(table, field, terms, criteria.caseSensitive ?? false, hits);
      for (let i = 0; i < hits.length; i++) if (hits[i] === 1 && (marked[i] === 1) === negate) hits[i] = 0;
    };
    require('message', criteria.messageTerms, false);
    require('author', criteria.authors, false);
    require('committer', criteria.committers, false);
    require('paths', criteria.files, false);
    require('message', criteria.notMessages ?? [], true);
    require('author', criteria.notAuthors ?? [], true);
  }
  const { after, before } = criteria;
  for (let i = 0; i < hits.length; i++) {
    const date = table.commits[i]!.committerDate;
    if (hits[i] === 1 && ((after !== undefined && date < after) || (before !== undefined && date > before))) hits[i] = 0;
  }
  if (filter !== null) hits = await applyCommitFilter(filter, (field) => table.fieldTexts(field), hits, runner, bounds);
  const out: number[] = [];
  for (let i = 0; i < hits.length; i++) if (hits[i] === 1) out.push(i);
  return out.sort((a, b) => table.commits[b]!.committerDate - table.commits[a]!.committerDate || b - a);
}

function markSubstrings(table: CommitTable, field: CommitField, terms: readonly string[], caseSensitive: boolean, scope: Uint8Array): Uint8Array {
  const marked = new Uint8Array(table.size);
  if (caseSensitive) {
    const { texts } = table.fieldTexts(field);
    for (let i = 0; i < table.size; i++) if (scope[i] === 1 && terms.some((t) => texts[i]!.includes(t))) marked[i] = 1;
    return marked;
  }
  const haystack: Haystack = field === 'message' ? table.messages : field === 'author' ? table.authors : field === 'committer' ? table.committers : table.paths;
  for (const term of terms) haystack.markContaining(term.toLowerCase().replace(/\0/g, ''), marked);
  return marked;
}
