/**
 * Which commits of one table meet the metadata criteria: values of one kind OR together, kinds
 * AND together, as commit_search and `type:commit` define. Substring terms scan the lower-cased
 * haystacks; regular expressions test each commit. Never runs git.
 */
import { createError } from '../errors.js';
import { personText, type CommitTable, type Haystack } from './commit-table.js';
import type { StoredCommit } from '../index/commits/commit-store.js';

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
  /** A last test per commit, for what the query language combines beyond OR lists. */
  readonly predicate?: (commit: StoredCommit) => boolean;
}

type Field = 'message' | 'author' | 'committer' | 'paths';

const TEXT_OF: Readonly<Record<Field, (c: StoredCommit) => string>> = {
  message: (c) => c.message,
  author: (c) => personText(c.authorName, c.authorEmail),
  committer: (c) => personText(c.committerName, c.committerEmail),
  paths: (c) => c.paths.join('\n'),
};

/** Checks regular expressions once, so a bad pattern fails before any repository is read. */
export function compileTerms(terms: readonly string[], criteria: Pick<CommitCriteria, 'useRegex' | 'caseSensitive'>): RegExp[] {
  if (!criteria.useRegex) return [];
  return terms.map((term) => {
    try {
      return new RegExp(term, criteria.caseSensitive ? 'mu' : 'imu');
    } catch (err) {
      throw createError('PATTERN_INVALID', `invalid regular expression ${JSON.stringify(term)}: ${(err as Error).message}`, { pattern: term });
    }
  });
}

/** Matching ordinals in `scope` (1 = candidate), newest committer date first. */
export function matchCommits(table: CommitTable, criteria: CommitCriteria, scope: Uint8Array): number[] {
  const hits = Uint8Array.from(scope);
  const require = (field: Field, terms: readonly string[], negate: boolean): void => {
    if (terms.length === 0) return;
    const marked = mark(table, field, terms, criteria, hits);
    for (let i = 0; i < hits.length; i++) if (hits[i] === 1 && (marked[i] === 1) === negate) hits[i] = 0;
  };
  require('message', criteria.messageTerms, false);
  require('author', criteria.authors, false);
  require('committer', criteria.committers, false);
  require('paths', criteria.files, false);
  require('message', criteria.notMessages ?? [], true);
  require('author', criteria.notAuthors ?? [], true);
  const out: number[] = [];
  const { after, before } = criteria;
  for (let i = 0; i < hits.length; i++) {
    if (hits[i] === 0) continue;
    const commit = table.commits[i]!;
    const date = commit.committerDate;
    if ((after === undefined || date >= after) && (before === undefined || date <= before) && (criteria.predicate?.(commit) ?? true)) out.push(i);
  }
  return out.sort((a, b) => table.commits[b]!.committerDate - table.commits[a]!.committerDate || b - a);
}

function mark(table: CommitTable, field: Field, terms: readonly string[], criteria: CommitCriteria, scope: Uint8Array): Uint8Array {
  const marked = new Uint8Array(table.size);
  if (criteria.useRegex) {
    const patterns = compileTerms(terms, criteria);
    const text = TEXT_OF[field];
    for (let i = 0; i < table.size; i++) {
      if (scope[i] === 1 && patterns.some((p) => p.test(text(table.commits[i]!)))) marked[i] = 1;
    }
    return marked;
  }
  if (criteria.caseSensitive) {
    const text = TEXT_OF[field];
    for (let i = 0; i < table.size; i++) if (scope[i] === 1 && terms.some((t) => text(table.commits[i]!).includes(t))) marked[i] = 1;
    return marked;
  }
  const haystack: Haystack = field === 'message' ? table.messages : field === 'author' ? table.authors : field === 'committer' ? table.committers : table.paths;
  for (const term of terms) haystack.markContaining(term.toLowerCase().replace(/\0/g, ''), marked);
  return marked;
}
