/**
 * Wires the MCP door: the tools' services (files at the indexed commit read from the index, the
 * rest from git), the site configuration read per request (`mcp.enabled`, `mcp.maxAnswerTokens`),
 * and the Host/Origin policy of the listen address.
 */
import { mcpRoutes, type McpFrontDoor } from '../api/mcp/routes.js';
import type { McpServices } from '../api/mcp/services.js';
import type { SiteAccess } from '../auth/authorize.js';
import { withIndexedFiles } from '../repos/browser.js';
import type { Services } from '../services.js';
import { PRODUCT_VERSION } from './graphql.js';

export type McpToolServices = Pick<Services, 'catalog' | 'docs' | 'repos' | 'search' | 'diffs' | 'symbols' | 'history' | 'evaluator'>;

export interface McpDoorDeps {
  readonly log: (line: string) => void;
  /** The origin a request reached us at, for the resource metadata URL in MCP's 401 challenge. */
  readonly origin: (headers: Readonly<Record<string, string>>) => string;
}

export function createServerMcp(services: McpToolServices & Pick<Services, 'config' | 'settings'>, deps: McpDoorDeps): McpFrontDoor {
  const { config } = services;
  return mcpRoutes({
    settings: () => services.settings().mcp,
    site: (): SiteAccess => services.settings().auth,
    services: mcpServices(services),
    origins: { loopbackListen: isLoopback(config.listen.host), allowedOrigins: config.mcpAllowedOrigins },
    disableDeepsearchTool: config.disableDeepsearchTool,
    protocolThreads: config.mcpThreads,
    version: PRODUCT_VERSION,
    log: deps.log,
    origin: deps.origin,
  });
}

export function mcpServices(services: McpToolServices): McpServices {
  const { catalog, repos } = services;
  return {
    search: services.search,
    repos: withIndexedFiles(repos, catalog, services.docs),
    async defaultCommit(repo) {
      return catalog.get(repo)?.commit ?? repos.resolveRevision(repo, 'HEAD');
    },
    indexedFileCount: (canRead) => catalog.list().reduce((n, m) => (canRead(m.repo) ? n + m.files : n), 0),
    diffs: services.diffs,
    symbols: services.symbols,
    history: services.history,
    evaluator: services.evaluator,
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
