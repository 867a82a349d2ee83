/**
 * `type:commit` for the search service: the query's pattern, author:, committer:, message:,
 * before: and after: become one test per commit, run by the history service over each selected
 * repository's commit index; matches carry the pattern's ranges in the message. No git here.
 */
import { createError } from '../errors.js';
import { parseDate } from '../history/dates.js';
import type { StoredCommit } from '../index/commits/commit-store.js';
import type { CommitSearchOutcome } from '../history/history-service.js';
import type { NamedCommitSearch } from '../history/repo-history.js';
import type { CommitMatch } from '../model/result.js';
import type { BasicQuery, NegatableValue, PatternExpr } from '../query/ast.js';
import type { RepoTarget } from './select-repos.js';

export interface CommitSearcher {
  searchCommits(request: NamedCommitSearch): Promise<CommitSearchOutcome>;
}

export interface CommitQueryResult {
  readonly matches: CommitMatch[];
  readonly limitHit: boolean;
}

export async function searchCommitQuery(history: CommitSearcher | undefined, basic: BasicQuery, targets: readonly RepoTarget[], limit: number): Promise<CommitQueryResult> {
  if (!history) throw createError('QUERY_UNSUPPORTED', 'type:commit searches are not available: this engine has no commit index');
  const flags = basic.filters.caseSensitive ? 'mu' : 'imu';
  const compile = (pattern: string): RegExp => {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      throw createError('PATTERN_INVALID', `invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`, { pattern });
    }
  };
  const commit = basic.filters.commit;
  const tests: ((c: StoredCommit) => boolean)[] = [];
  const add = (values: readonly NegatableValue[] | undefined, text: (c: StoredCommit) => string): void => {
    for (const value of values ?? []) {
      const re = compile(value.pattern);
      tests.push((c) => re.test(text(c)) !== value.negated);
    }
  };
  add(commit?.authors, (c) => `${c.authorName} <${c.authorEmail}>`);
  add(commit?.committers, (c) => `${c.committerName} <${c.committerEmail}>`);
  add(commit?.messages, (c) => c.message);
  const pattern = basic.pattern === null ? null : compilePattern(basic.pattern, compile);
  if (pattern) tests.push((c) => pattern.test(c.message));
  const highlight = basic.pattern === null ? [] : positiveAtoms(basic.pattern).map(compile);
  const criteria = {
    messageTerms: [], authors: [], committers: [], files: [], useRegex: false,
    ...(commit?.after ? { after: parseDate(commit.after) } : {}),
    ...(commit?.before ? { before: parseDate(commit.before) } : {}),
    predicate: (c: StoredCommit) => tests.every((t) => t(c)),
  };
  const outcomes = await Promise.all(targets.map(async (target) => ({
    target,
    outcome: await history.searchCommits({ repos: [target.manifest.repo], criteria, contentTerms: [], revisions: target.revs, count: limit, canRead: () => true }),
  })));
  const hits = outcomes.flatMap(({ target, outcome }) => outcome.commits.map((hit) => ({ hit, id: target.manifest.repoId })))
    .sort((a, b) => b.hit.commit.committerDate - a.hit.commit.committerDate);
  const total = outcomes.reduce((n, o) => n + o.outcome.totalCount, 0);
  const matches = hits.slice(0, limit).map(({ hit, id }) => toMatch(hit.repository, id, hit.commit, highlight));
  return { matches, limitHit: total > matches.length };
}

interface Pattern { test(message: string): boolean }

function compilePattern(expr: PatternExpr, compile: (pattern: string) => RegExp): Pattern {
  if (expr.kind === 'atom') {
    const re = compile(expr.regexp ? expr.value : escapeRegExp(expr.value));
    return { test: (m) => re.test(m) !== expr.negated };
  }
  const children = expr.children.map((child) => compilePattern(child, compile));
  return expr.kind === 'and' ? { test: (m) => children.every((c) => c.test(m)) } : { test: (m) => children.some((c) => c.test(m)) };
}

function positiveAtoms(expr: PatternExpr): string[] {
  if (expr.kind === 'atom') return expr.negated ? [] : [expr.regexp ? expr.value : escapeRegExp(expr.value)];
  return expr.children.flatMap(positiveAtoms);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function toMatch(repository: string, repositoryID: number, c: StoredCommit, highlight: readonly RegExp[]): CommitMatch {
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
  return {
    type: 'commit', repository, repositoryID, oid: c.oid, message: c.message, parents: c.parents,
    authorName: c.authorName, authorEmail: c.authorEmail, authorDate: iso(c.authorDate),
    committerName: c.committerName, committerEmail: c.committerEmail, committerDate: iso(c.committerDate),
    ranges: messageRanges(c.message, highlight), matchCount: 1,
  };
}

function messageRanges(message: string, patterns: readonly RegExp[]): [number, number, number][] {
  const ranges: [number, number, number][] = [];
  message.split('\n').forEach((line, lineNumber) => {
    for (const pattern of patterns) {
      const global = new RegExp(pattern.source, `${pattern.flags}g`);
      for (const m of line.matchAll(global)) if (m[0].length > 0) ranges.push([lineNumber, m.index, m[0].length]);
    }
  });
  return ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
