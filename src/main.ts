/**
 * Composition root: builds store → catalog → worker pool → search service from a Config, and
 * the HTTP server on top. The CLI starts here; nothing else picks concrete implementations.
 */
import { join } from 'node:path';
import { streamSearchRoute } from './api/stream/route.js';
import { createAuthenticator } from './auth/authenticate.js';
import { forSourcegraphApi } from './auth/policy.js';
import type { Principal } from './auth/principal.js';
import type { Config } from './config.js';
import { createError, errorMessage, isQuarryError } from './errors.js';
import type { HttpServer } from './http/server.js';
import { openCatalog, segmentsDir, type Catalog } from './index/lmdb/catalog.js';
import { indexRepository, type IndexOutcome } from './indexer/index-repository.js';
import { reasonToIndex } from './indexer/index-health.js';
import { openCommitStore } from './index/commits/commit-store.js';
import { createHistoryService } from './history/history-service.js';
import { createRepoHistory, type RepoHistory } from './history/repo-history.js';
import { registryHistorySource } from './history/repo-source.js';
import { createEnginePool } from './pool/engine-pool.js';
import type { EnginePool } from './pool/pool.js';
import { mirrorDir, recordIndexOutcome } from './repos/registry.js';
import { createRevisionSource } from './repos/revisions.js';
import { startSyncSchedule } from './repos/scheduler.js';
import type { SearchService } from './search/contracts.js';
import { createSearchService } from './search/service.js';
import { ensureInitialAdmin } from './store/bootstrap.js';
import { openStore, type Store } from './store/open.js';
import { byGeneration } from './store/generation.js';
import { getSiteConfig, type SiteConfiguration } from './store/site-config.js';
import { createRepoAccess } from './store/repo-permissions.js';
import type { RepoRecord } from './store/repos.js';
import { prepareCaseFolding } from './regex/index.js';

export interface Engine {
  readonly config: Config;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly pool: EnginePool;
  readonly search: SearchService;
  /** The commit index: commit search, contributors; brought up to date after each indexing run. */
  readonly history: RepoHistory;
  /** Indexes the repository and records on it whether that failed. */
  index(repo: RepoRecord, onProgress?: (done: number, total: number, bytes: number) => void): Promise<IndexOutcome>;
  /** Why the repository needs indexing although its refs did not move (index-health.ts), or null. */
  reasonToIndex(repo: RepoRecord): Promise<string | null>;
  close(): Promise<void>;
}

export function openEngine(config: Config): Engine {
  const store = openStore(config.dataDir);
  const catalog = openCatalog(config.dataDir);
  const pool = createEnginePool({ threads: config.threads });
  const repoCtx = { dataDir: config.dataDir, store };
  const commits = openCommitStore(config.dataDir);
  const historyRepos = registryHistorySource(repoCtx);
  const history = createRepoHistory(createHistoryService(commits, pool), historyRepos);
  const search = createSearchService({
    catalog: { list: () => catalog.list(), segmentDir: (id) => join(segmentsDir(config.dataDir), id) },
    runner: pool,
    revisions: createRevisionSource(repoCtx, config.maxFileSize),
    matcher: config.matcher,
    commits: history,
    diffs: {
      pool,
      searchCommits: (request) => history.searchCommits(request),
      gitDir(name) {
        const repo = historyRepos.get(name);
        if (!repo) throw createError('REPO_NOT_FOUND', `repository not found: ${name}`, { repo: name });
        return repo.gitDir;
      },
    },
    settings: byGeneration(store, () => {
      const { search } = getSiteConfig(store).effective;
      return {
        maxResults: search.limits.maxResults, maxCount: search.limits.maxCount,
        defaultTimeoutMs: search.defaultTimeoutSeconds * 1000, maxTimeoutMs: search.limits.maxTimeoutSeconds * 1000,
      };
    }),
  });
  return {
    config, store, catalog, pool, search, history,
    async index(repo, onProgress) {
      try {
        const outcome = await indexRepository(
          { dataDir: config.dataDir, catalog, pool },
          { name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo), fork: repo.fork, archived: repo.archived },
          { maxFileSize: config.maxFileSize, symbols: config.symbols, ...(onProgress ? { onProgress } : {}) },
        );
        await history.update(repo.name);
        recordIndexOutcome(repoCtx, repo.name, null);
        return outcome;
      } catch (err) {
        // Another run holding the lock is not a failure of this repository.
        if (!isQuarryError(err, 'INDEX_BUSY')) recordIndexOutcome(repoCtx, repo.name, err);
        throw err;
      }
    },
    reasonToIndex: (repo) => reasonToIndex(config.dataDir, catalog, { name: repo.name, id: repo.id, gitDir: mirrorDir(repoCtx, repo) }),
    async close() {
      await pool.close();
      await commits.close();
      await catalog.close();
      await store.close();
    },
  };
}

export interface StartServerOptions {
  /** Serve even when uWebSockets.js fell back to its slow pure-JS server. */
  readonly allowJsFallback?: boolean;
  readonly log?: (line: string) => void;
}

export interface RunningServer {
  readonly url: string;
  readonly binding: 'native' | 'js-fallback';
  /** The first start on an empty data directory creates an admin; its token is shown only here. */
  readonly initialAdmin: { readonly username: string; readonly token: string } | null;
  /** Stops accepting, lets requests in flight finish for up to graceMs, then closes everything. */
  stop(graceMs: number): Promise<void>;
}

/** Opens the engine, starts the mirror sync schedule and the HTTP server (loaded only here). */
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  // Loaded only to serve, so one-shot commands never pay for uWebSockets.js, graphql or graphql-jit.
  const http = await import('./http/index.js');
  const { apiRoutes } = await import('./server/api-routes.js');
  const { createServerGraphQL } = await import('./server/graphql.js');
  const { createServerMcp } = await import('./server/mcp.js');
  const { createEdgePolicies } = await import('./server/edge.js');
  if (http.binding !== 'native' && !options.allowJsFallback) {
    throw createError('NATIVE_UNAVAILABLE', 'uWebSockets.js could not load its native binary and fell back to its slow pure-JS server; refusing to serve (pass --allow-js-fallback to serve anyway)');
  }
  const engine = openEngine(config);
  prepareCaseFolding();
  const settings: () => SiteConfiguration = byGeneration(engine.store, () => getSiteConfig(engine.store).effective);
  const stopSync = startSyncSchedule({ dataDir: config.dataDir, store: engine.store }, {
    intervalMs: () => config.syncIntervalMs ?? settings().repos.syncIntervalSeconds * 1000,
    onSynced: async ({ repo, changed }) => {
      const reason = changed ? 'new commits' : await engine.reasonToIndex(repo);
      if (reason === null) return;
      if (!changed) log(`index: ${repo.name}: ${reason}; indexing`);
      await engine.index(repo);
    },
    onError: (name, err) => log(`sync: ${name}: ${errorMessage(err)}`),
  });
  const startedAt = Date.now();
  let stopping = false;
  const authenticate = createAuthenticator(engine.store);
  const sourcegraphApiAuth = forSourcegraphApi(authenticate, () => settings().auth);
  const edge = createEdgePolicies({ authenticate, settings, metricsToken: config.metricsToken });
  const repoAccess = (principal: Principal): ((repo: string) => boolean) => createRepoAccess(engine.store, principal);
  const mcp = createServerMcp({ config, store: engine.store, catalog: engine.catalog, search: engine.search, history: engine.history, pool: engine.pool, settings, authenticate, repoAccess, log });
  const metrics = http.createMetrics();
  const searches = metrics.counter('quarry_stream_searches_total', 'Streaming searches by outcome (cancelled: the client went away).', 'outcome');
  const server: HttpServer = http.createHttpServer({
    maxBodyBytes: () => config.maxBodyBytes ?? settings().http.maxBodyBytes, onLog: log, metrics, limits: edge.limits, guard: edge.guard,
    routes: [
      ...http.opsRoutes({
        metrics, authorizeScrape: edge.authorizeScrape,
        // One read of each environment: a health check must cost nothing, and listing the catalog decodes every manifest.
        problems: () => (stopping ? ['pool'] : [...probe('store', () => engine.store.meta.get('health')), ...probe('catalog', () => engine.catalog.get(''))]),
        gauges: () => ({
          poolQueueDepth: engine.pool.queueSize, poolThreads: engine.pool.threads, requestsInFlight: server.requestsInFlight,
          indexes: indexTotals(engine.catalog), uptimeSeconds: (Date.now() - startedAt) / 1000,
        }),
      }),
      streamSearchRoute({
        search: engine.search, authenticate: sourcegraphApiAuth, repoAccess, onSearchEnd: (outcome) => searches.inc(outcome),
      }),
      ...apiRoutes({ graphql: createServerGraphQL({ dataDir: config.dataDir, store: engine.store, search: engine.search, history: engine.history, pool: engine.pool }), authenticate: sourcegraphApiAuth, repoAccess }),
      ...mcp.routes,
    ],
  });
  const shutdown = async (graceMs: number): Promise<void> => {
    stopping = true;
    const { cutOff } = await server.close(graceMs);
    if (cutOff > 0) log(`shutdown: cut off ${cutOff} ${cutOff === 1 ? 'request' : 'requests'} still running after ${graceMs} ms`);
    await stopSync();
    await mcp.close();
    await engine.close();
  };
  const port = await server.listen(config.listen.host, config.listen.port).then(({ port }) => port, async (err: unknown) => {
    await shutdown(0);
    throw err;
  });
  // After listening succeeded: a token created by a start that then failed would be lost.
  const initialAdmin = ensureInitialAdmin(engine.store);
  return {
    url: `http://${config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host}:${port}`,
    binding: http.binding,
    initialAdmin,
    stop: shutdown,
  };
}

function indexTotals(catalog: Catalog): { repositories: number; files: number; bytes: number } {
  const manifests = catalog.list();
  return { repositories: manifests.length, files: manifests.reduce((n, m) => n + m.files, 0), bytes: manifests.reduce((n, m) => n + m.bytes, 0) };
}

function probe(name: string, check: () => unknown): string[] {
  try {
    check();
    return [];
  } catch {
    return [name];
  }
}
