/**
 * Repositories and their git objects as the front doors read them (model/repos.ts): records and
 * visibility from the store, objects from the bare mirrors through git/. A repository the caller
 * may not read does not exist. withIndexedFiles serves files at the indexed commit from the index.
 */
import { isQuarryError } from '../errors.js';
import { readCommitHeader } from '../git/commit.js';
import { listRefs, resolveRevision } from '../git/mirror.js';
import { listDirectory, readFileAt } from '../git/tree.js';
import type { Catalog } from '../index/lmdb/catalog.js';
import type { DocLookup } from '../index/lmdb/doc-lookup.js';
import type { RepoBrowser, RepoInfo, TreeItem } from '../model/repos.js';
import { repoVisibility } from '../store/repo-permissions.js';
import type { RepoRecord } from '../store/records.js';
import { getRepo, listRepos } from '../store/repos.js';
import { gitDirOf, type RepoContext } from './registry.js';

/** Files larger than this are not returned whole. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

export function createRepoBrowser(ctx: RepoContext): RepoBrowser {
  const info = (record: RepoRecord): RepoInfo => ({
    id: record.id,
    name: record.name,
    description: '',
    fork: record.fork,
    archived: record.archived,
    private: !repoVisibility(ctx.store, record.name).public,
    defaultBranch: record.defaultBranch || null,
  });
  return {
    list: (canRead) => listRepos(ctx.store).filter((r) => canRead(r.name)).map(info).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    get: (name, canRead) => {
      const record = canRead(name) ? getRepo(ctx.store, name) : undefined;
      return record ? info(record) : null;
    },
    refs: async (repo) => (await listRefs(gitDirOf(ctx, repo))).map((r) => ({ kind: r.kind, name: r.name, oid: r.oid })),
    async resolveRevision(repo, rev) {
      try {
        return await resolveRevision(gitDirOf(ctx, repo), rev);
      } catch (err) {
        if (isQuarryError(err, 'REVISION_NOT_FOUND')) return null;
        throw err;
      }
    },
    readCommit: async (repo, oid) => readCommitHeader(gitDirOf(ctx, repo), oid),
    readBlob: async (repo, commit, path) => readFileAt(gitDirOf(ctx, repo), commit, path, MAX_BLOB_BYTES),
    async listTree(repo, commit, path, recursive) {
      const entries = await listDirectory(gitDirOf(ctx, repo), commit, path, recursive);
      return entries?.map((e): TreeItem => ({ path: e.path, isDirectory: e.type === 'tree' })) ?? null;
    },
  };
}

/**
 * The browser, reading files at a repository's indexed commit from the live index segments, so
 * such a read needs no git process; skipped files (binary, too large), non-files and other
 * commits miss the index and go to `browser`.
 */
export function withIndexedFiles(browser: RepoBrowser, catalog: Pick<Catalog, 'get'>, docs: Pick<DocLookup, 'read'>): RepoBrowser {
  const fromIndex = (repo: string, commit: string, path: string): Buffer | null => {
    const manifest = catalog.get(repo);
    if (!manifest || manifest.commit !== commit) return null;
    try {
      return docs.read(manifest, path);
    } catch {
      // A re-index may have removed this snapshot's segments after we read the manifest; git still has the commit.
      return null;
    }
  };
  return {
    ...browser,
    readBlob: async (repo, commit, path) => fromIndex(repo, commit, path) ?? browser.readBlob(repo, commit, path),
  };
}
