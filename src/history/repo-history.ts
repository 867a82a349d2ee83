/**
 * The history service as the front doors use it: repositories by name, visibility applied here
 * (a repository the caller may not read is absent, exactly like a missing one), dates already parsed.
 */
import { createError, isQuarryError } from '../errors.js';
import type { CommitCriteria } from './commit-match.js';
import type { CommitIndexOutcome } from './commit-indexer.js';
import type { CommitSearchOutcome, ContributorRepo, HistoryRepo, HistoryService } from './history-service.js';
import { contributorsOf, type Contributor, type ContributorOptions } from './contributors.js';

export interface NamedCommitSearch {
  readonly repos: readonly string[];
  readonly criteria: CommitCriteria;
  readonly contentTerms: readonly string[];
  readonly revisions: readonly string[];
  readonly count: number;
  /** Where the page starts: 0, or the `next` of the page before. */
  readonly start?: number;
  readonly canRead: (repo: string) => boolean;
  readonly deadline?: number;
  readonly signal?: AbortSignal;
}

export interface RepoHistory {
  searchCommits(request: NamedCommitSearch): Promise<CommitSearchOutcome>;
  /** Over every readable repository; repositories whose history cannot be read yet are left out. */
  contributorRepos(authors: readonly string[], minCommits: number, canRead: (repo: string) => boolean): Promise<ContributorRepo[]>;
  contributors(repo: string, options: ContributorOptions, canRead: (repo: string) => boolean): Promise<Contributor[]>;
  update(repo: string): Promise<CommitIndexOutcome>;
}

export interface HistoryRepoSource {
  get(name: string): HistoryRepo | undefined;
  list(): readonly HistoryRepo[];
}

export function createRepoHistory(service: HistoryService, repos: HistoryRepoSource): RepoHistory {
  const visible = (name: string, canRead: (repo: string) => boolean): HistoryRepo => {
    const repo = canRead(name) ? repos.get(name) : undefined;
    if (!repo) throw createError('REPO_NOT_FOUND', `repository not found: ${name}`, { repo: name });
    return repo;
  };
  return {
    searchCommits: (request) => service.searchCommits({ ...request, repos: request.repos.map((name) => visible(name, request.canRead)) }),
    async contributorRepos(authors, minCommits, canRead) {
      const readable = repos.list().filter((r) => canRead(r.name));
      const found = await Promise.all(readable.map((repo) => service.contributorRepos([repo], authors, minCommits).catch((err: unknown) => {
        if (isQuarryError(err, 'GIT_FAILED') || isQuarryError(err, 'REVISION_NOT_FOUND')) return [];
        throw err;
      })));
      return found.flat().sort((a, b) => b.commitCount - a.commitCount || b.latestDate - a.latestDate || (a.repository < b.repository ? -1 : 1));
    },
    async contributors(name, options, canRead) {
      return contributorsOf(await service.table(visible(name, canRead)), options);
    },
    update: (name) => service.update(visible(name, () => true)),
  };
}
