/**
 * The services the MCP tools run on, over the real engine: the search service, the repository
 * browser (files at the indexed commit read from the index, anything else from git), and the catalog.
 */
import { join } from 'node:path';
import type { McpServices } from '../api/mcp/services.js';
import { createError } from '../errors.js';
import { createDiffHistory } from '../history/diff-service.js';
import type { RepoHistory } from '../history/repo-history.js';
import { segmentsDir, type Catalog } from '../index/lmdb/catalog.js';
import { createDocLookup } from '../index/lmdb/doc-lookup.js';
import type { RepoBrowser } from '../model/repos.js';
import { mirrorDir } from '../repos/registry.js';
import type { PoolFor } from '../pool/pool.js';
import type { SearchService } from '../search/contracts.js';
import type { Store } from '../store/open.js';
import { getRepo } from '../store/repos.js';
import { createRepoBrowser } from './repo-browser.js';
import { createSymbolIndex } from './symbol-index.js';

export interface McpServiceDeps {
  readonly dataDir: string;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly search: SearchService;
  /** The worker pool parses files of unindexed revisions for code navigation and matches diff lines; without it those tools are off. */
  readonly pool?: PoolFor<'parse-symbols' | 'diff-lines' | 'text-match'>;
  /** The commit index; without it commit_search and get_contributor_repos answer that history is unavailable. */
  readonly history?: RepoHistory;
}

export interface ServerMcpServices extends McpServices {
  /** Closes the index segments held open for file reads and symbol tables. */
  close(): Promise<void>;
}

export function createMcpServices(deps: McpServiceDeps): ServerMcpServices {
  const git = createRepoBrowser({ dataDir: deps.dataDir, store: deps.store });
  const lookup = createDocLookup((id) => join(segmentsDir(deps.dataDir), id));

  const fromIndex = (repo: string, commit: string, path: string): Buffer | null => {
    const manifest = deps.catalog.get(repo);
    if (!manifest || manifest.commit !== commit) return null;
    try {
      return lookup.read(manifest, path);
    } catch {
      // A re-index may have removed this snapshot's segments after we read the manifest; git still has the commit.
      return null;
    }
  };

  const repos: RepoBrowser = {
    ...git,
    // Skipped files (binary, too large), non-files and other commits miss the index and go to git.
    readBlob: async (repo, commit, path) => fromIndex(repo, commit, path) ?? git.readBlob(repo, commit, path),
  };

  const symbols = deps.pool === undefined ? undefined : createSymbolIndex({ dataDir: deps.dataDir, catalog: deps.catalog, pool: deps.pool });

  return {
    search: deps.search,
    repos,
    async defaultCommit(repo) {
      return deps.catalog.get(repo)?.commit ?? git.resolveRevision(repo, 'HEAD');
    },
    indexedFileCount: (canRead) => deps.catalog.list().reduce((n, m) => (canRead(m.repo) ? n + m.files : n), 0),
    ...(deps.pool === undefined ? {} : { diffs: createDiffHistory((name) => {
      const record = getRepo(deps.store, name);
      if (!record) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`);
      return mirrorDir({ dataDir: deps.dataDir, store: deps.store }, record);
    }, deps.pool) }),
    ...(symbols === undefined ? {} : { symbols }),
    ...(deps.history === undefined ? {} : { history: deps.history }),
    async close() {
      await symbols?.close();
      await lookup.close();
    },
  };
}
