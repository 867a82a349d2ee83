/**
 * Composition root of the server: the services (services.ts) built once, the mirror sync schedule,
 * then the doors, each handed the services it uses. One-shot commands call createServices alone.
 */
import { setFlagsFromString } from 'node:v8';
import { deepSearchPageRoutes } from './api/deepsearch/pages.js';
import { deepSearchApiRoutes } from './api/deepsearch/rest.js';
import { graphqlRoute } from './api/graphql/route.js';
import { oauthRoutes } from './api/oauth/routes.js';
import { consoleRoutes } from './api/pages/routes.js';
import { sessionRoutes } from './api/pages/session-pages.js';
import { settingsRoutes } from './api/pages/settings-pages.js';
import { webRoutes } from './api/pages/web/routes.js';
import { streamSearchRoute } from './api/stream/route.js';
import { createAuthenticator } from './auth/authenticate.js';
import { createOAuthApplicationService } from './auth/oauth/applications.js';
import { createIdentityProvider } from './auth/oauth/service.js';
import type { Config } from './config.js';
import { createError, errorMessage } from './errors.js';
import type { HttpServer } from './http/server.js';
import { prepareCaseFolding } from './regex/index.js';
import { withIndexedFiles } from './repos/browser.js';
import { startSyncSchedule } from './repos/scheduler.js';
import { setMainThreadBudget } from './pool/main-thread-budget.js';
import { createEdgePolicies } from './server/edge.js';
import { createClusterNode } from './server/cluster.js';
import { createServerOps } from './server/ops.js';
import { webServices } from './server/web.js';
import { createServices, type Services } from './services.js';
import { ensureInitialAdmin } from './store/bootstrap.js';
import { openStoreAt } from './store/open.js';

export interface StartServerOptions {
  /** Serve even when uWebSockets.js fell back to its slow pure-JS server. */
  readonly allowJsFallback?: boolean;
  readonly log?: (line: string) => void;
  /**
   * On a shared database (PostgreSQL), each request first catches up with the changes other
   * servers committed (one round trip), so revocations hold on the next request. Default true;
   * false only to measure what that costs (bench/store/catch-up.bench.ts).
   */
  readonly catchUpPerRequest?: boolean;
}

export interface RunningServer {
  readonly url: string;
  readonly binding: 'native' | 'js-fallback';
  /** The first start on an empty data directory creates an admin; its token is shown only here. */
  readonly initialAdmin: { readonly username: string; readonly token: string } | null;
  /** Stops accepting, lets requests in flight finish for up to graceMs, then closes everything. */
  stop(graceMs: number): Promise<void>;
}

/** Builds the services, starts the mirror sync schedule and the HTTP server (loaded only here) with its doors. */
export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  // V8 drops the bytecode of functions idle for a few full collections; a server's rare paths (the
  // refusals of hostile input) then recompile on the main thread each time: refusing a backtracking
  // regex took 10-23 ms a dozen seconds apart under load, 6-9 ms with bytecode kept. Set before any
  // worker starts, so every isolate keeps its own.
  setFlagsFromString('--no-flush-bytecode');
  // Loaded only to serve, so one-shot commands never pay for uWebSockets.js, graphql or graphql-jit.
  const http = await import('./http/index.js');
  const { createServerGraphQL } = await import('./server/graphql.js');
  const { createServerMcp } = await import('./server/mcp.js');
  if (http.binding !== 'native' && !options.allowJsFallback) {
    throw createError('NATIVE_UNAVAILABLE', 'uWebSockets.js could not load its native binary and fell back to its slow pure-JS server; refusing to serve (pass --allow-js-fallback to serve anyway)');
  }
  const services = createServices(config, { store: await openStoreAt(config.dataDir, config.databaseUrl), spareThreads: 1 });
  setMainThreadBudget(config.mainThreadMsPerMinute);
  prepareCaseFolding();
  const { settings } = services;
  // A front end keeps no mirrors; a search node syncs what it owns once it knows the members (after join).
  const cluster = createClusterNode(services, log);
  let stopSync = config.role === 'all' ? syncMirrors(services, log) : async () => {};
  let stopping = false;
  // Each request's credentials are resolved once, at the edge; the doors read that result.
  // The authorization server and the sign-in session, over the same store every process shares.
  const identity = createIdentityProvider(services.store);
  const authenticate = createAuthenticator(services.store, { scrapeToken: config.metricsToken, overTls: identity.overTls });
  const site = () => settings().auth;
  const edge = createEdgePolicies({ settings });
  const metrics = http.createMetrics();
  const searches = metrics.counter('quarry_stream_searches_total', 'Streaming searches by outcome (cancelled: the client went away).', 'outcome');
  const oauthApps = createOAuthApplicationService(services.store);
  const doors = cluster.doorServices;
  const mcp = createServerMcp(doors, { log, origin: identity.origin, ...(cluster.mcpTools !== undefined ? { tools: cluster.mcpTools } : {}) });
  const server: HttpServer = http.createHttpServer({
    authenticate,
    maxBodyBytes: () => config.maxBodyBytes ?? settings().http.maxBodyBytes, onLog: log, metrics, limits: edge.limits, guard: edge.guard,
    ...(config.databaseUrl !== null && options.catchUpPerRequest !== false ? { catchUp: () => services.store.root.refresh() } : {}),
    routes: [
      ...createServerOps(services, {
        metrics, authorizeScrape: edge.authorizeScrape, stopping: () => stopping, requestsInFlight: () => server.requestsInFlight,
      }),
      ...cluster.routes,
      // A search node serves only the internal search: its own index is a share, not an answer.
      ...(config.role === 'search' ? [] : [
        streamSearchRoute({
          search: doors.search, site, onSearchEnd: (outcome) => searches.inc(outcome),
          readFile: withIndexedFiles(doors.repos, services.catalog, services.docs).readBlob,
        }),
        graphqlRoute({ graphql: createServerGraphQL(doors, oauthApps), site }),
        ...consoleRoutes(),
        ...sessionRoutes(identity),
        ...settingsRoutes({ idp: identity, accounts: services.accounts, apps: oauthApps }),
        ...oauthRoutes(identity),
        ...mcp.routes,
        ...deepSearchApiRoutes({ deepSearch: mcp.deepSearch, askerFor: mcp.askerFor, site, origin: (headers) => identity.origin(headers) }),
        ...deepSearchPageRoutes({ deepSearch: mcp.deepSearch, idp: identity, site }),
        // Last: the web app takes every path no route above does.
        ...webRoutes(webServices(doors, identity)),
      ]),
    ],
  });
  const shutdown = async (graceMs: number): Promise<void> => {
    stopping = true;
    const { cutOff } = await server.close(graceMs);
    if (cutOff > 0) log(`shutdown: cut off ${cutOff} ${cutOff === 1 ? 'request' : 'requests'} still running after ${graceMs} ms`);
    await stopSync();
    await cluster.stop();
    await mcp.close();
    await services.close();
  };
  const port = await server.listen(config.listen.host, config.listen.port).then(({ port }) => port, async (err: unknown) => {
    await shutdown(0);
    throw err;
  });
  // After listening succeeded: a token created by a start that then failed would be lost.
  const initialAdmin = ensureInitialAdmin(services.store);
  const url = `http://${config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host}:${port}`;
  await cluster.join(url);
  if (config.role === 'search') stopSync = syncMirrors(services, log, { includes: (name) => cluster.owns(name), settled: (name) => cluster.settled(name) });
  return {
    url,
    binding: http.binding,
    initialAdmin,
    stop: shutdown,
  };
}

/** Fetches mirrors on the schedule and indexes what changed or what needs it (index-health.ts); returns how to stop. */
function syncMirrors(services: Services, log: (line: string) => void, share?: { includes(name: string): boolean; settled(name: string): void }): () => Promise<void> {
  const { config } = services;
  return startSyncSchedule({ dataDir: config.dataDir, store: services.store }, {
    ...(share !== undefined ? { includes: (name: string) => share.includes(name) } : {}),
    intervalMs: () => config.syncIntervalMs ?? services.settings().repos.syncIntervalSeconds * 1000,
    onSynced: async ({ repo, changed }) => {
      const reason = changed ? 'new commits' : await services.reasonToIndex(repo);
      if (reason !== null) {
        if (!changed) log(`index: ${repo.name}: ${reason}; indexing`);
        await services.index(repo);
      }
      share?.settled(repo.name);
    },
    onError: (name, err) => log(`sync: ${name}: ${errorMessage(err)}`),
  });
}
