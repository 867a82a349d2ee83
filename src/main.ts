/**
 * Composition root: builds store → catalog → worker pool → search service from a Config.
 * The CLI and (later) the HTTP server start here; nothing else picks concrete implementations.
 */
import { join } from 'node:path';
import type { Config } from './config.js';
import { openCatalog, segmentsDir, type Catalog } from './index/lmdb/catalog.js';
import { indexRepository, type IndexOutcome } from './indexer/index-repository.js';
import { createWorkerPool, type WorkerPool } from './pool/piscina-pool.js';
import { mirrorDir } from './repos/registry.js';
import { createRevisionSource } from './repos/revisions.js';
import type { SearchService } from './search/contracts.js';
import { createSearchService } from './search/service.js';
import { openStore, type Store } from './store/open.js';
import type { RepoRecord } from './store/repos.js';

export interface Engine {
  readonly config: Config;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly pool: WorkerPool;
  readonly search: SearchService;
  index(repo: RepoRecord, onProgress?: (done: number, total: number, bytes: number) => void): Promise<IndexOutcome>;
  close(): Promise<void>;
}

export function openEngine(config: Config): Engine {
  const store = openStore(config.dataDir);
  const catalog = openCatalog(config.dataDir);
  const pool = createWorkerPool({ threads: config.threads });
  const repoCtx = { dataDir: config.dataDir, store };
  const search = createSearchService({
    catalog: { list: () => catalog.list(), segmentDir: (id) => join(segmentsDir(config.dataDir), id) },
    runner: pool,
    revisions: createRevisionSource(repoCtx, config.maxFileSize),
    matcher: config.matcher,
  });
  return {
    config, store, catalog, pool, search,
    index: (repo, onProgress) => indexRepository(
      { dataDir: config.dataDir, catalog, pool },
      { name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo), fork: repo.fork, archived: repo.archived },
      { maxFileSize: config.maxFileSize, ...(onProgress ? { onProgress } : {}) },
    ),
    async close() {
      await pool.close();
      await catalog.close();
      await store.close();
    },
  };
}
