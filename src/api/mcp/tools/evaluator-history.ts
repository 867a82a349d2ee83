/**
 * search.commits and search.diffs for evaluator scripts: commit_search's commit index and
 * diff_search's diff matcher, with the caller's permissions (a repository it may not read is
 * answered as missing), as rows: one per commit, or one per matched changed line.
 */
import { parseDate } from '../../../history/dates.js';
import { subjectOf } from '../../../history/diff-model.js';
import { compileDiffPattern } from '../../../history/diff-match.js';
import { ToolError, type ToolContext } from '../tool.js';
import type { ScriptArgs } from './evaluator-args.js';
import type { Rows } from './evaluator-search.js';
import { resolveRepoName } from './closest-names.js';
import { diffService } from './diff-repos.js';
import { authorFilter } from './diff-search.js';
import { historyOf } from './history-format.js';

const DEFAULT_COMMITS = 100;
/** More than commit_search's 100: a script counts over history rather than reading it. */
const MAX_COMMITS = 1000;
const DEFAULT_DIFF_COMMITS = 20;
const MAX_DIFF_COMMITS = 100;
const MAX_REPOS = 50;
const DIFF_TIMEOUT_MS = 20_000;

export interface CommitRow {
  readonly repo: string;
  readonly commit: string;
  readonly author: string;
  readonly email: string;
  /** RFC 3339, UTC. */
  readonly date: string;
  readonly subject: string;
  readonly message: string;
  /** Paths the commit changed. */
  readonly files: readonly string[];
}

export interface DiffRow {
  readonly repo: string;
  readonly commit: string;
  readonly author: string;
  readonly date: string;
  readonly subject: string;
  readonly path: string;
  /** "+" added, "-" removed. */
  readonly kind: string;
  /** In the new file for an added line, in the old one for a removed line. */
  readonly line: number;
  readonly text: string;
}

const COMMIT_OPTIONS = ['repos', 'messageTerms', 'authors', 'contentTerms', 'files', 'after', 'before', 'revisions', 'count', 'useRegex'];
const DIFF_OPTIONS = ['pattern', 'repos', 'added', 'removed', 'authors', 'after', 'before', 'revisions', 'count', 'useRegex'];

function reposOf(ctx: ToolContext, names: readonly string[]): string[] {
  if (names.length > MAX_REPOS) throw new ToolError(`option repos names ${names.length} repositories; pass at most ${MAX_REPOS}`);
  return [...new Set(names.map((name) => resolveRepoName(ctx, name)))];
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export async function commitRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<CommitRow>> {
  const opts = args.options(1, COMMIT_OPTIONS);
  const repos = reposOf(ctx, opts.requiredStrings('repos', 'github.com/org/repo'));
  const after = opts.string('after');
  const before = opts.string('before');
  const outcome = await historyOf(ctx).searchCommits({
    repos, canRead: ctx.principal.canRead, count: opts.integer('count', 1, MAX_COMMITS) ?? DEFAULT_COMMITS,
    contentTerms: opts.strings('contentTerms') ?? [], revisions: opts.strings('revisions') ?? [], signal: ctx.signal,
    criteria: {
      messageTerms: opts.strings('messageTerms') ?? [], authors: opts.strings('authors') ?? [], committers: [], files: opts.strings('files') ?? [],
      useRegex: opts.boolean('useRegex') ?? false,
      ...(after !== undefined ? { after: parseDate(after) } : {}),
      ...(before !== undefined ? { before: parseDate(before) } : {}),
    },
  });
  const rows: Rows<CommitRow> = outcome.commits.map(({ repository, commit }) => ({
    repo: repository, commit: commit.oid, author: commit.authorName, email: commit.authorEmail, date: isoSeconds(commit.authorDate),
    subject: subjectOf(commit.message), message: commit.message, files: commit.paths,
  }));
  if (outcome.limitHit) rows.truncated = true;
  return rows;
}

export async function diffRows(ctx: ToolContext, args: ScriptArgs): Promise<Rows<DiffRow>> {
  const opts = args.options(1, DIFF_OPTIONS);
  const text = opts.requiredString('pattern', 'parseConfig(');
  const repos = reposOf(ctx, opts.requiredStrings('repos', 'github.com/org/repo'));
  const useRegex = opts.boolean('useRegex') ?? false;
  const after = opts.string('after');
  const before = opts.string('before');
  const count = opts.integer('count', 1, MAX_DIFF_COMMITS) ?? DEFAULT_DIFF_COMMITS;
  const query = {
    pattern: compileDiffPattern(text, { regex: useRegex, caseSensitive: false }),
    added: opts.boolean('added') ?? false, removed: opts.boolean('removed') ?? false,
    metadata: authorFilter((opts.strings('authors') ?? []).filter((t) => t.trim() !== ''), useRegex),
    after: after === undefined ? null : new Date(parseDate(after) * 1000),
    before: before === undefined ? null : new Date(parseDate(before) * 1000),
    revisions: opts.strings('revisions') ?? [], count, deadline: Date.now() + DIFF_TIMEOUT_MS, signal: ctx.signal,
  };
  const rows: Rows<DiffRow> = [];
  const page = await diffService(ctx).searchDiffs(repos, query);
  const truncated = page.next !== null || page.timedOut;
  for (const { repo, hit: { commit, hunks } } of page.hits) {
    const meta = { repo, commit: commit.oid, author: commit.authorName, date: commit.authorDate, subject: subjectOf(commit.message) };
    for (const hunk of hunks) {
      const path = hunk.newPath ?? hunk.oldPath ?? '';
      for (const hit of hunk.hits) rows.push({ ...meta, path, kind: hit.line.kind, line: hit.line.newLine ?? hit.line.oldLine ?? 0, text: hit.line.text });
    }
  }
  if (truncated) rows.truncated = true;
  return rows;
}
