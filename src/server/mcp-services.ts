/**
 * The services the MCP tools run on, over the real engine: the search service, the repository
 * browser (files at the indexed commit read from the index, anything else from git), and the catalog.
 */
import { join } from 'node:path';
import type { McpServices } from '../api/mcp/services.js';
import { segmentsDir, type Catalog } from '../index/lmdb/catalog.js';
import { createDocLookup } from '../index/lmdb/doc-lookup.js';
import type { RepoBrowser } from '../model/repos.js';
import type { SearchService } from '../search/contracts.js';
import type { Store } from '../store/open.js';
import { createRepoBrowser } from './repo-browser.js';

export interface McpServiceDeps {
  readonly dataDir: string;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly search: SearchService;
}

export interface ServerMcpServices extends McpServices {
  /** Closes the index segments held open for file reads. */
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

  return {
    search: deps.search,
    repos,
    async defaultCommit(repo) {
      return deps.catalog.get(repo)?.commit ?? git.resolveRevision(repo, 'HEAD');
    },
    indexedFileCount: () => deps.catalog.list().reduce((n, m) => n + m.files, 0),
    close: () => lookup.close(),
  };
}
