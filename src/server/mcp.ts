/**
 * Builds the MCP routes the server mounts: the real tool services, the site configuration read
 * per request (`mcp.enabled`, `mcp.maxAnswerTokens`), and the Host/Origin policy of the listen address.
 */
import { mcpRoutes } from '../api/mcp/routes.js';
import type { AuthResult } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import type { Config } from '../config.js';
import type { Route } from '../http/routes.js';
import type { Catalog } from '../index/lmdb/catalog.js';
import type { RepoHistory } from '../history/repo-history.js';
import type { PoolFor } from '../pool/pool.js';
import type { SearchService } from '../search/contracts.js';
import type { Store } from '../store/open.js';
import type { SiteConfiguration } from '../store/site-config.js';
import { PRODUCT_VERSION } from './graphql.js';
import { createMcpServices } from './mcp-services.js';

export interface ServerMcpDeps {
  readonly config: Config;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly search: SearchService;
  /** The commit index for commit_search and get_contributor_repos. */
  readonly history?: RepoHistory;
  /** Parses unindexed revisions for go_to_definition and find_references, matches diff_search lines; those tools answer "not available" without it. */
  readonly pool?: PoolFor<'parse-symbols' | 'diff-lines' | 'text-match'>;
  readonly settings: () => SiteConfiguration;
  readonly authenticate: (headers: Readonly<Record<string, string>>, query: URLSearchParams) => AuthResult;
  readonly repoAccess: (principal: Principal) => (repo: string) => boolean;
  readonly log: (line: string) => void;
}

export interface ServerMcp {
  readonly routes: Route[];
  /** Stops the protocol threads and releases the index segments the tools hold open; after the HTTP server stopped. */
  close(): Promise<void>;
}

export function createServerMcp(deps: ServerMcpDeps): ServerMcp {
  const { config } = deps;
  const services = createMcpServices({ dataDir: config.dataDir, store: deps.store, catalog: deps.catalog, search: deps.search, ...(deps.pool ? { pool: deps.pool } : {}), ...(deps.history ? { history: deps.history } : {}) });
  const front = mcpRoutes({
    settings: () => deps.settings().mcp,
    authenticate: deps.authenticate,
    repoAccess: deps.repoAccess,
    services,
    origins: { loopbackListen: isLoopback(config.listen.host), allowedOrigins: config.mcpAllowedOrigins },
    disableDeepsearchTool: config.disableDeepsearchTool,
    protocolThreads: config.mcpThreads,
    version: PRODUCT_VERSION,
    log: deps.log,
  });
  return {
    routes: front.routes,
    async close() {
      await front.close();
      await services.close();
    },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
