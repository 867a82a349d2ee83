/**
 * The services, built once from a Config: store, catalog, worker pool, repositories and their
 * mirrors, search, history, symbols, accounts. One-shot commands use them directly; the server
 * (main.ts) hands each door the ones it uses. Only these two pick concrete implementations.
 */
import { join } from 'node:path';
import type { Config } from './config.js';
import { isQuarryError } from './errors.js';
import { createDiffHistory, type DiffHistory } from './history/diff-service.js';
import { createHistoryIndexService, type HistoryIndexService } from './history/history-index-service.js';
import { createHistoryService } from './history/history-service.js';
import { createRepoHistory, type RepoHistory } from './history/repo-history.js';
import { openCommitStore } from './index/commits/commit-store.js';
import { openHistoryIndexes } from './index/history/history-store.js';
import { openCatalog, segmentsDir, type Catalog } from './index/lmdb/catalog.js';
import { asDiskFull } from './index/lmdb/disk-space.js';
import { createDocLookup, type DocLookup } from './index/lmdb/doc-lookup.js';
import { reasonToIndex } from './indexer/index-health.js';
import { PhaseMeter, ProgressFile, type ProgressListener } from './indexer/index-progress.js';
import { indexRepository, type IndexOutcome } from './indexer/index-repository.js';
import type { AccountService, ConfigService } from './model/accounts.js';
import type { RepoBrowser } from './model/repos.js';
import type { SymbolIndex } from './model/symbols.js';
import { createEnginePool } from './pool/engine-pool.js';
import { createInThreadEnginePool } from './pool/in-thread-pool.js';
import type { EnginePool } from './pool/pool.js';
import { createSandboxPool } from './pool/sandbox-pool.js';
import { createRepoBrowser } from './repos/browser.js';
import { registryHistorySource } from './repos/history-source.js';
import { gitDirOf, mirrorDir, recordIndexOutcome } from './repos/registry.js';
import { createRevisionSource } from './repos/revisions.js';
import { createScriptRunner, type ScriptRunner } from './sandbox/script-runner.js';
import { SANDBOX_ENTRY, SANDBOX_KINDS } from './sandbox/tasks.js';
import type { SearchService } from './search/contracts.js';
import { createSearchService, type SearchSettings } from './search/service.js';
import { createAccountService, createConfigService } from './store/account-service.js';
import { byGeneration } from './store/generation.js';
import { openStore } from './store/open.js';
import type { RepoRecord, Store } from './store/records.js';
import { getRepo } from './store/repos.js';
import { getSiteConfig, type SiteConfiguration } from './store/site-config.js';
import { createSymbolIndex } from './symbols/symbol-index.js';

export interface Services {
  readonly config: Config;
  readonly store: Store;
  /** The site configuration in effect, computed again only when the store generation moves. */
  readonly settings: () => SiteConfiguration;
  /** The search limits and timeouts of that configuration (a cluster's front end applies them too). */
  readonly searchSettings: () => SearchSettings;
  readonly catalog: Catalog;
  readonly pool: EnginePool;
  /** Repositories and their git objects, from the mirrors. */
  readonly repos: RepoBrowser;
  /** Documents of the live index segments by path: file reads and symbol tables share these readers. */
  readonly docs: DocLookup;
  readonly search: SearchService;
  /** The commit index: commit search, contributors; brought up to date after each indexing run. */
  readonly history: RepoHistory;
  /** Diff search, comparisons and ancestors: the history index first, git for what it does not hold. */
  readonly diffs: DiffHistory;
  /** The changed lines of every commit, indexed after each indexing run. */
  readonly historyIndex: HistoryIndexService;
  /** The symbol tables stored in the index; files outside it are parsed in the pool. */
  readonly symbols: SymbolIndex;
  /** Lua scripts for the evaluator tool, in a sandbox pool of their own, started on first use. */
  readonly evaluator: ScriptRunner;
  readonly accounts: AccountService;
  readonly siteConfig: ConfigService;
  /**
   * Indexes the repository in phases (text, then unless `textOnly` symbols and history), records
   * on it whether that failed, and publishes each phase's progress (index-progress.ts).
   */
  index(repo: RepoRecord, options?: { readonly textOnly?: boolean; readonly onPhase?: ProgressListener }): Promise<IndexOutcome>;
  /** Why the repository needs indexing although its refs did not move (index-health.ts), or null. */
  reasonToIndex(repo: RepoRecord): Promise<string | null>;
  close(): Promise<void>;
}

export interface ServicesOptions {
  /**
   * Where the engine's tasks run. `workers` (the default; every command and the server): worker
   * threads that a runaway scan or a crash cannot take the process down with, behind the compile
   * guard. `in-thread`: the same handlers on the calling thread, one task at a time, with nothing
   * to start: for tests of the services' own logic, which need neither preemption nor isolation.
   */
  readonly pool?: 'workers' | 'in-thread';
  /**
   * Loaded engine threads kept beyond config.threads: a task stopped at its deadline or preempted
   * ends its thread, and the next task goes to a spare at once rather than waiting for a new
   * thread to load. For the server, where such stops come from callers; default 0.
   */
  readonly spareThreads?: number;
  /** The store, opened beforehand (openStoreAt: PostgreSQL opens asynchronously); default: LMDB under the data directory. */
  readonly store?: Store;
}

/**
 * Lua runs at once: scripts mostly wait on the searches they ask for, which the engine pool runs;
 * a caller may hold at most half the threads (the fair queue), so two callers' scripts never queue
 * behind each other. Each thread keeps a Lua VM and a heap of up to deepSearch.evaluator.maxMemoryBytes.
 */
const SANDBOX_THREADS = 2;
/** The pool's own bound on a run; the site setting (at most an hour) sets each run's deadline. */
const SANDBOX_MAX_RUN_MS = 3_600_000;

export function createServices(config: Config, options: ServicesOptions = {}): Services {
  const store = options.store ?? openStore(config.dataDir);
  const catalog = openCatalog(config.dataDir);
  const pool = options.pool === 'in-thread' ? createInThreadEnginePool() : createEnginePool({ threads: config.threads, spareThreads: options.spareThreads ?? 0 });
  const repoCtx = { dataDir: config.dataDir, store };
  // A repository's bare mirror by name, or REPO_NOT_FOUND: for diffs, which git reads.
  const gitDir = (repo: string): string => gitDirOf(repoCtx, repo);
  const commits = openCommitStore(config.dataDir);
  const historyIndexes = openHistoryIndexes(config.dataDir);
  const historyIndex = createHistoryIndexService(historyIndexes, pool);
  const historyIndexOf = (repo: string) => {
    const record = getRepo(store, repo);
    return record ? historyIndex.reader(record.id) : null;
  };
  const historyService = createHistoryService(commits, pool, historyIndex.reader);
  const historyRepos = registryHistorySource(repoCtx);
  const history = createRepoHistory(historyService, historyRepos);
  const commitTableOf = async (repo: string) => {
    const record = historyRepos.get(repo);
    return record ? historyService.indexedTable(record) : null;
  };
  const segmentDir = (id: string): string => join(segmentsDir(config.dataDir), id);
  const docs = createDocLookup(segmentDir);
  // One parse of the site configuration per change of the store, shared by every reader.
  const settings = byGeneration(store, () => getSiteConfig(store).effective);
  const searchSettings = byGeneration(store, (): SearchSettings => {
    const { search } = settings();
    return {
      maxResults: search.limits.maxResults, maxCount: search.limits.maxCount,
      defaultTimeoutMs: search.defaultTimeoutSeconds * 1000, maxTimeoutMs: search.limits.maxTimeoutSeconds * 1000,
    };
  });
  const search = createSearchService({
    catalog: { list: () => catalog.list(), source: (id) => ({ kind: 'segment', dir: segmentDir(id) }) },
    runner: pool,
    revisions: createRevisionSource(repoCtx, config.maxFileSize),
    matcher: config.matcher,
    commits: history,
    diffs: { pool, searchCommits: (request) => history.searchCommits(request), gitDir, indexOf: historyIndexOf },
    settings: searchSettings,
  });
  const evaluator = createScriptRunner({
    limits: () => settings().deepSearch.evaluator,
    createPool: (heapMiB) => createSandboxPool({
      entry: SANDBOX_ENTRY, kinds: SANDBOX_KINDS, heapMiB, threads: Math.min(SANDBOX_THREADS, config.threads),
      maxRunMs: SANDBOX_MAX_RUN_MS, sliceMs: null,
    }),
  });
  return {
    config, store, catalog, pool, docs, search, history, settings, searchSettings, evaluator,
    repos: createRepoBrowser(repoCtx),
    diffs: createDiffHistory(gitDir, pool, historyIndexOf, commitTableOf),
    historyIndex,
    symbols: createSymbolIndex({ catalog, docs, parse: (path, content) => pool.submit('parse-symbols', { path, content }) }),
    accounts: createAccountService(store),
    siteConfig: createConfigService(store),
    async index(repo, options = {}) {
      const progress = new ProgressFile(config.dataDir, repo.name, repo.id, options.onPhase);
      try {
        const outcome = await indexRepository(
          { dataDir: config.dataDir, catalog, pool },
          { name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo), fork: repo.fork, archived: repo.archived },
          { maxFileSize: config.maxFileSize, symbols: config.symbols, textOnly: options.textOnly ?? false, onPhase: progress.listener },
        );
        if (options.textOnly) {
          recordIndexOutcome(repoCtx, repo.name, null);
          return outcome;
        }
        const historyPhase = new PhaseMeter('history', 'commits', null, progress.listener);
        await history.update(repo.name);
        const historyOutcome = await historyIndex.update({ name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo) });
        if (historyOutcome.added > 0) historyPhase.update(historyOutcome.added, historyOutcome.sizeBytes);
        historyPhase.finish();
        recordIndexOutcome(repoCtx, repo.name, null);
        return outcome;
      } catch (caught) {
        const err = asDiskFull(caught, segmentsDir(config.dataDir), 'indexing');
        // Another run holding the lock is not a failure of this repository.
        if (!isQuarryError(err, 'INDEX_BUSY')) recordIndexOutcome(repoCtx, repo.name, err);
        throw err;
      } finally {
        progress.remove();
      }
    },
    reasonToIndex: (repo) => reasonToIndex(config.dataDir, catalog, { name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo) }, config.symbols),
    async close() {
      await evaluator.close();
      await docs.close();
      await pool.close();
      await commits.close();
      await historyIndexes.close();
      await catalog.close();
      await store.close();
    },
  };
}
