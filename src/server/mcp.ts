/**
 * Wires the MCP door: the tools' services (files at the indexed commit read from the index, the
 * rest from git), the site configuration read per request (`mcp.enabled`, `mcp.maxAnswerTokens`),
 * and the Host/Origin policy of the listen address.
 */
import { mcpRoutes, type McpFrontDoor } from '../api/mcp/routes.js';
import { chooseBrain } from '../deepsearch/choose-brain.js';
import { secretFromEnvironment } from '../config.js';
import { DeepSearch, type Asker } from '../deepsearch/service.js';
import { researchTools } from '../api/mcp/research-tools.js';
import type { Principal } from '../auth/principal.js';
import { openConversations } from '../store/conversations.js';
import type { McpServices } from '../api/mcp/services.js';
import type { ToolDefinition } from '../api/mcp/tool.js';
import type { SiteAccess } from '../auth/authorize.js';
import { withIndexedFiles } from '../repos/browser.js';
import type { Services } from '../services.js';
import { PRODUCT_VERSION } from './graphql.js';

export type McpToolServices = Pick<Services, 'catalog' | 'docs' | 'repos' | 'search' | 'diffs' | 'symbols' | 'history' | 'evaluator'>;

export interface ServerMcp extends McpFrontDoor {
  readonly deepSearch: DeepSearch;
  /** A caller of another door (the deep search REST API) as a research's asker: the MCP tools' functions, their repositories. */
  askerFor(principal: Principal & { readonly userId: number }, origin: string): Asker;
}

export interface McpDoorDeps {
  readonly log: (line: string) => void;
  /** The origin a request reached us at, for the resource metadata URL in MCP's 401 challenge. */
  readonly origin: (headers: Readonly<Record<string, string>>) => string;
  /** The tools to serve (a cluster front end routes some to search nodes); the registry's by default. */
  readonly tools?: readonly ToolDefinition[];
}

export function createServerMcp(services: McpToolServices & Pick<Services, 'config' | 'settings' | 'store'>, deps: McpDoorDeps): ServerMcp {
  const { config } = services;
  const deepSearch = createDeepSearch(services, deps.log);
  const toolServices = mcpServices(services, deepSearch);
  const door = mcpRoutes({
    settings: () => services.settings().mcp,
    site: (): SiteAccess => services.settings().auth,
    services: toolServices,
    origins: { loopbackListen: isLoopback(config.listen.host), allowedOrigins: config.mcpAllowedOrigins },
    disableDeepsearchTool: config.disableDeepsearchTool,
    protocolThreads: config.mcpThreads,
    version: PRODUCT_VERSION,
    log: deps.log,
    origin: deps.origin,
    ...(deps.tools !== undefined ? { tools: deps.tools } : {}),
  });
  return {
    routes: door.routes,
    deepSearch,
    askerFor: (principal, origin) => ({
      userId: principal.userId,
      tools: (signal) => researchTools({ principal, services: toolServices, origin, maxAnswerTokens: services.settings().mcp.maxAnswerTokens, signal, log: deps.log }),
    }),
    async close() {
      deepSearch.stopAll();
      await door.close();
    },
  };
}

/** Conversations in the store; questions a stopped server left running are marked interrupted now, before any new one starts. */
export function createDeepSearch(services: Pick<Services, 'settings' | 'store'>, log: (line: string) => void): DeepSearch {
  const deepSearch = new DeepSearch({
    conversations: openConversations(services.store),
    settings: () => services.settings().deepSearch,
    brainFor: (settings) => chooseBrain(settings, (name) => secretFromEnvironment(name)),
    log,
  });
  const interrupted = deepSearch.recover();
  if (interrupted > 0) log(`deepsearch: marked ${interrupted} question(s) interrupted by the last stop`);
  return deepSearch;
}

export function mcpServices(services: McpToolServices, deepSearch?: DeepSearch): McpServices {
  const { catalog, repos } = services;
  return {
    search: services.search,
    repos: withIndexedFiles(repos, catalog, services.docs),
    async defaultCommit(repo) {
      return catalog.get(repo)?.commit ?? repos.resolveRevision(repo, 'HEAD');
    },
    indexedFileCount: (canRead) => catalog.list().reduce((n, m) => (canRead(m.repo) ? n + m.files : n), 0),
    symbolsPending: (repo) => catalog.get(repo)?.symbolsPending === true,
    diffs: services.diffs,
    symbols: services.symbols,
    history: services.history,
    evaluator: services.evaluator,
    ...(deepSearch === undefined ? {} : { deepSearch }),
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
