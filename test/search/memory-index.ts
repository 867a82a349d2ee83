/**
 * An index held in memory for tests of the search service: each repository is one segment of
 * documents, each other revision a set of files and its history a list of commit messages, read
 * through the seams (CatalogView, RevisionSource, CommitSource) the LMDB catalog, the git mirrors
 * and the commit index fill in production. No git, no disk.
 */
import { createHash } from 'node:crypto';
import { createError } from '../../src/errors.js';
import { FORMAT_VERSION } from '../../src/index/format.js';
import type { CommitSearchOutcome } from '../../src/history/history-service.js';
import type { Manifest } from '../../src/index/manifest.js';
import { packMemoryDocs, type MemoryDocs } from '../../src/index/memory-source.js';
import type { CatalogView, RevisionSource } from '../../src/search/contracts.js';
import type { CommitSource } from '../../src/search/searchers/commit.js';

export interface MemoryRepo {
  readonly name: string;
  /** The indexed branch's files, path → content. */
  readonly files: Readonly<Record<string, string>>;
  readonly fork?: boolean;
  readonly archived?: boolean;
  /** Revisions that are not indexed (tags, other branches), each with its files. */
  readonly revisions?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Commit messages, newest first: a commit matches when its message holds every message term. */
  readonly commits?: readonly string[];
}

export interface MemoryIndex {
  readonly catalog: CatalogView;
  readonly revisions: RevisionSource;
  readonly commits: CommitSource;
}

const commitOf = (repo: string, rev: string): string => createHash('sha1').update(`${repo}@${rev}`).digest('hex');

function docsOf(files: Readonly<Record<string, string>>): MemoryDocs {
  const paths = Object.keys(files).sort();
  return packMemoryDocs(paths.map((path) => ({ path, content: Buffer.from(files[path]!) })));
}

function manifestOf(repo: MemoryRepo, repoId: number): Manifest {
  const files = Object.values(repo.files);
  return {
    formatVersion: FORMAT_VERSION, repo: repo.name, repoId, commit: commitOf(repo.name, 'main'), branch: 'main',
    indexedAt: new Date(0).toISOString(), fork: repo.fork ?? false, archived: repo.archived ?? false,
    segments: [{ id: `memory-${repoId}`, docCount: files.length, deleted: [] }],
    skipped: [], files: files.length, bytes: files.reduce((n, f) => n + Buffer.byteLength(f), 0),
  };
}

export function createMemoryIndex(repos: readonly MemoryRepo[]): MemoryIndex {
  const manifests = repos.map((repo, i) => manifestOf(repo, i + 1));
  const segments = new Map(repos.map((repo, i) => [manifests[i]!.segments[0]!.id, docsOf(repo.files)]));
  const commits = new Map<string, Readonly<Record<string, string>>>();
  for (const repo of repos) {
    for (const [rev, files] of Object.entries(repo.revisions ?? {})) commits.set(commitOf(repo.name, rev), files);
  }
  return {
    catalog: {
      list: () => [...manifests],
      source: (id) => ({ kind: 'memory', ...segments.get(id)! }),
    },
    revisions: {
      async resolve(repo, rev) {
        const commit = commitOf(repo, rev);
        if (!commits.has(commit)) throw createError('REVISION_NOT_FOUND', `revision not found: ${rev}`, { rev });
        return commit;
      },
      async readBatches(_repo, commit, _batchBytes, onBatch) {
        await onBatch(docsOf(commits.get(commit)!));
      },
    },
    commits: { searchCommits: async ({ repos: names, criteria }) => commitsMatching(repos, names, criteria.messageTerms) },
  };
}

function commitsMatching(repos: readonly MemoryRepo[], names: readonly string[], terms: readonly string[]): CommitSearchOutcome {
  const hits = repos.flatMap((repo, i) => (names.includes(repo.name) ? (repo.commits ?? []).map((message, n) => ({ repo, repositoryID: i + 1, message, n })) : []))
    .filter(({ message }) => terms.every((term) => message.includes(term)))
    .map(({ repo, repositoryID, message, n }, position) => ({
      repository: repo.name, repositoryID, position,
      commit: {
        oid: commitOf(repo.name, `commit-${n}`), parents: [], authorName: 'A U Thor', authorEmail: 'author@example.com', authorDate: 0,
        committerName: 'A U Thor', committerEmail: 'author@example.com', committerDate: 0, message, paths: [],
      },
    }));
  return { commits: hits, totalCount: hits.length, totalExact: true, limitHit: false, next: null };
}
