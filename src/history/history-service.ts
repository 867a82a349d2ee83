/**
 * The history service over the commit index: commit search across repositories and the
 * repositories an author contributed to. Tables are loaded from LMDB once per index version and
 * a repository never indexed is indexed on first use. Callers pass repositories already allowed.
 */
import { createError } from '../errors.js';
import type { CommitStore, StoredCommit } from '../index/commits/commit-store.js';
import { updateCommitIndex, type CommitIndexOutcome } from './commit-indexer.js';
import { criteriaFilter, matchCommits, type CommitCriteria } from './commit-match.js';
import { commitPage, type PagedCommit } from './commit-page.js';
import { CommitTable } from './commit-table.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import type { DiffLineRunner } from './diff-lines.js';
import { revisionScope } from './revision-scope.js';

export interface HistoryRepo {
  readonly name: string;
  readonly id: number;
  readonly gitDir: string;
}

export interface CommitSearchRequest {
  readonly repos: readonly HistoryRepo[];
  readonly criteria: CommitCriteria;
  /** Lines added or removed that match any term (git log -G). */
  readonly contentTerms: readonly string[];
  readonly revisions: readonly string[];
  readonly count: number;
  /** Where the page starts: 0, or the `next` of the page before. */
  readonly start?: number;
  /** Epoch milliseconds for matching regular expressions (default: HISTORY_TIMEOUT_MS from now). */
  readonly deadline?: number;
  readonly signal?: AbortSignal;
}

/** How long regular expressions over commit metadata may run when the caller gives no deadline. */
export const HISTORY_TIMEOUT_MS = 20_000;

export type CommitHit = PagedCommit;

export interface CommitSearchOutcome {
  /** Newest first, from the request's start. */
  readonly commits: readonly CommitHit[];
  /** Matches from the start on, before the count cut; a lower bound when `totalExact` is false. */
  readonly totalCount: number;
  readonly totalExact: boolean;
  readonly limitHit: boolean;
  /** Where the next page starts (a position among the candidates), or null when none is left. */
  readonly next: number | null;
}

export interface ContributorRepo {
  readonly repository: string;
  readonly commitCount: number;
  /** Author date of the newest matching commit, Unix seconds. */
  readonly latestDate: number;
}

export interface HistoryService {
  searchCommits(request: CommitSearchRequest): Promise<CommitSearchOutcome>;
  /** Repositories with default-branch commits by an author matching any term (name or e-mail, case-insensitive substring). */
  contributorRepos(repos: readonly HistoryRepo[], authors: readonly string[], minCommits: number): Promise<ContributorRepo[]>;
  /** The repository's commit index as loaded for searching and its default branch, or null when it was never built (nothing is built here). */
  indexedTable(repo: HistoryRepo): Promise<{ table: CommitTable; defaultBranch: string } | null>;
  /** The commits of one repository's default branch, for GraphQL's contributors. */
  table(repo: HistoryRepo): Promise<{ table: CommitTable; head: Uint8Array }>;
  update(repo: HistoryRepo): Promise<CommitIndexOutcome>;
}

/** Commits held in memory across repositories; the least recently used tables go first. */
const MAX_CACHED_COMMITS = 4_000_000;

/**
 * `runner` matches regular expressions over commit fields and stored diffs: this thread never
 * runs one. `indexOf` gives a repository's history index, which decides content terms for the
 * commits it holds (git decides the rest).
 */
export function createHistoryService(store: CommitStore, runner: DiffLineRunner, indexOf: (repoId: number) => DiffIndexReader | null = () => null): HistoryService {
  const cache = new Map<number, { version: number; table: CommitTable }>();
  let cachedCommits = 0;
  const building = new Map<number, Promise<CommitIndexOutcome>>();

  const update = (repo: HistoryRepo): Promise<CommitIndexOutcome> => {
    const running = building.get(repo.id);
    if (running) return running;
    const started = updateCommitIndex(store, repo.id, repo.gitDir).finally(() => building.delete(repo.id));
    building.set(repo.id, started);
    return started;
  };

  const load = async (repo: HistoryRepo) => {
    let state = store.state(repo.id);
    if (!state) {
      await update(repo);
      state = store.state(repo.id);
      if (!state) throw createError('INTERNAL', `commit index of ${repo.name} was not written`);
    }
    const cached = cache.get(repo.id);
    if (cached) {
      cache.delete(repo.id);
      if (cached.version === state.version) {
        cache.set(repo.id, cached);
        return { state, table: cached.table };
      }
      cachedCommits -= cached.table.size;
    }
    const commits: StoredCommit[] = [];
    for (const chunk of store.chunks(repo.id)) commits.push(...chunk);
    const table = new CommitTable(commits);
    cache.set(repo.id, { version: state.version, table });
    cachedCommits += table.size;
    for (const [id, entry] of cache) {
      if (cachedCommits <= MAX_CACHED_COMMITS || id === repo.id) break;
      cache.delete(id);
      cachedCommits -= entry.table.size;
    }
    return { state, table };
  };

  return {
    update,
    async indexedTable(repo) {
      if (store.state(repo.id) === undefined) return null;
      const { state, table } = await load(repo);
      return { table, defaultBranch: state.defaultBranch };
    },
    async table(repo) {
      const { state, table } = await load(repo);
      return { table, head: await revisionScope(table, state, repo.gitDir, []) };
    },
    async searchCommits(request) {
      const { criteria } = request;
      const filter = criteriaFilter(criteria);
      const bounds = { deadline: request.deadline ?? Date.now() + HISTORY_TIMEOUT_MS, ...(request.signal ? { signal: request.signal } : {}) };
      const sources = await Promise.all(request.repos.map(async (repo) => {
        const { state, table } = await load(repo);
        const scope = await revisionScope(table, state, repo.gitDir, request.revisions);
        const ordinals = await matchCommits(table, criteria, filter, scope, runner, bounds);
        return { name: repo.name, id: repo.id, gitDir: repo.gitDir, commits: ordinals.map((o) => table.commits[o]!), index: indexOf(repo.id) };
      }));
      const content = { terms: request.contentTerms, useRegex: criteria.useRegex, caseSensitive: criteria.caseSensitive ?? false };
      const page = await commitPage(sources, content, request.start ?? 0, request.count, runner, bounds);
      return { ...page, limitHit: page.next !== null };
    },
    async contributorRepos(repos, authors, minCommits) {
      const found: ContributorRepo[] = [];
      for (const repo of repos) {
        const { table, head } = await this.table(repo);
        const ordinals = await matchCommits(table, { messageTerms: [], authors, committers: [], files: [], useRegex: false }, null, head, runner, { deadline: Date.now() + HISTORY_TIMEOUT_MS });
        if (ordinals.length < Math.max(1, minCommits)) continue;
        const latestDate = ordinals.reduce((max, o) => Math.max(max, table.commits[o]!.authorDate), 0);
        found.push({ repository: repo.name, commitCount: ordinals.length, latestDate });
      }
      return found.sort((a, b) => b.commitCount - a.commitCount || b.latestDate - a.latestDate || (a.repository < b.repository ? -1 : 1));
    },
  };
}
