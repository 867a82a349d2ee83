/**
 * The MCP front door: `/.api/mcp`, `/.api/mcp/all` and `/.api/mcp/deepsearch` as routes. Origins
 * are checked here, callers by auth/authorize.ts; the protocol is spoken in protocol threads
 * (stateless: every POST gets its own SDK transport, so any process can answer any request); tools
 * run here. GET and DELETE answer 405; with `mcp.enabled` false every path under `/.api/mcp`
 * answers 404 `no route`.
 */
import { authorize, withResourceMetadata, type McpDoor, type SiteAccess } from '../../auth/authorize.js';
import { protectedResourceMetadataUrl } from '../../auth/oauth/metadata.js';
import type { Authentication } from '../../auth/principal.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import { checkOrigin, corsHeaders, type OriginPolicy, type Refusal } from './access.js';
import type { ListedTool } from './protocol-messages.js';
import { ProtocolThreads } from './protocol-threads.js';
import { ENDPOINT_PATHS, IMPLEMENTED, toolsFor } from './registry.js';
import { runTool } from './run-tool.js';
import type { McpServices } from './services.js';
import type { Endpoint, ToolContext, ToolDefinition } from './tool.js';

export interface McpSettings {
  readonly enabled: boolean;
  readonly maxAnswerTokens: number;
  /** `mcp.tools.disabled`: hidden from tools/list and refused, on every endpoint, from the next request on. */
  readonly tools: { readonly disabled: readonly string[] };
}

export interface McpRouteDeps {
  /** Read per request: the site configuration applies without a restart. */
  readonly settings: () => McpSettings;
  /** Site setting `auth.public`, as the authorization table reads it (MCP's rows refuse anonymous callers on any site). */
  readonly site: () => SiteAccess;
  readonly services: McpServices;
  readonly origins: OriginPolicy;
  readonly disableDeepsearchTool: boolean;
  readonly version: string;
  readonly log: (line: string) => void;
  /** The origin a request reached us at: a 401's challenge names the endpoint's resource metadata there (RFC 9728 §5.1). */
  readonly origin?: (headers: Readonly<Record<string, string>>) => string;
  /** Threads speaking the protocol (the SDK's per-request work) beside the main thread. */
  readonly protocolThreads: number;
  /** The tools to serve; the registry's implemented tools unless a test brings its own. */
  readonly tools?: readonly ToolDefinition[];
}

export interface McpFrontDoor {
  readonly routes: Route<Authentication>[];
  /** Stops the protocol threads; after the HTTP server stopped. */
  close(): Promise<void>;
}

/** Each endpoint's row in the authorization table. */
export const ENDPOINT_DOORS: Readonly<Record<Endpoint, McpDoor>> = { core: 'mcp', all: 'mcp-all', deepsearch: 'mcp-deepsearch' };

/**
 * No valid MCP message is larger: the largest argument any tool takes is the evaluator's script,
 * 100,000 characters, at most 600,000 bytes of JSON if every one is a `\uXXXX` escape. A larger
 * body is refused (413) before it is read, copied to a protocol thread and parsed there, and its
 * arguments copied back: a megabyte of that per request is what one caller's loop cost everyone.
 */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

const METHOD_NOT_ALLOWED = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });

export function mcpRoutes(deps: McpRouteDeps): McpFrontDoor {
  const registryOptions = { disableDeepsearchTool: deps.disableDeepsearchTool };
  const endpoints = Object.keys(ENDPOINT_PATHS) as Endpoint[];
  const served = new Map(endpoints.map((endpoint) => [endpoint, toolsFor(endpoint, registryOptions, deps.tools ?? IMPLEMENTED)]));
  const listings = Object.fromEntries(endpoints.map((endpoint) => [endpoint, served.get(endpoint)!.map(listed)])) as Record<Endpoint, ListedTool[]>;
  const threads = new ProtocolThreads({ version: deps.version, listings, disabledTools: deps.disableDeepsearchTool ? ['deepsearch'] : [] }, deps.protocolThreads, deps.log);
  const routes = endpoints.flatMap((endpoint): Route<Authentication>[] => {
    const tools = new Map(served.get(endpoint)!.map((t) => [t.name, t]));
    const handler: Route<Authentication>['handler'] = (request, reply) => serve(deps, threads, endpoint, tools, request, reply);
    return [{ method: '*', path: ENDPOINT_PATHS[endpoint], handler, maxBodyBytes: MCP_MAX_BODY_BYTES }, { method: '*', path: `${ENDPOINT_PATHS[endpoint]}/`, handler, maxBodyBytes: MCP_MAX_BODY_BYTES }];
  });
  routes.push({ method: '*', path: '/.api/mcp/*', handler: (_, reply) => reply.text(404, 'no route') });
  return { routes, close: () => threads.close() };
}

function listed(tool: ToolDefinition): ListedTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations ?? {} };
}

async function serve(deps: McpRouteDeps, threads: ProtocolThreads, endpoint: Endpoint, tools: ReadonlyMap<string, ToolDefinition>, request: HttpRequest<Authentication>, reply: Reply): Promise<void> {
  const settings = deps.settings();
  if (!settings.enabled) return reply.text(404, 'no route');
  const refuse = (refusal: Refusal, extra: Record<string, string> = {}): void => reply.send(refusal.status, refusal.body, { ...refusal.headers, ...extra });
  const originRefusal = checkOrigin(request.headers, deps.origins);
  if (originRefusal !== null) return refuse(originRefusal);
  const cors = corsHeaders(request.headers);
  if (request.method === 'OPTIONS') return reply.send(204, '', { ...cors, 'Access-Control-Max-Age': '600' });
  const caller = authorize(request.auth, ENDPOINT_DOORS[endpoint], deps.site);
  if (!caller.ok) {
    const origin = deps.origin?.(request.headers) ?? originOf(request);
    return refuse(withResourceMetadata(caller.answer, protectedResourceMetadataUrl(origin, ENDPOINT_PATHS[endpoint])), cors);
  }
  if (request.method !== 'POST') return reply.send(405, METHOD_NOT_ALLOWED, { ...cors, 'Content-Type': 'application/json', Allow: 'POST, OPTIONS' });
  const context: ToolContext = {
    principal: caller.principal,
    signal: request.signal,
    origin: originOf(request),
    maxAnswerTokens: settings.maxAnswerTokens,
    services: deps.services,
    log: deps.log,
  };
  // The protocol thread only asks for tools it listed, so the lookup cannot miss.
  await threads.handle(endpoint, request, reply, cors, settings.tools.disabled, (name, args, progress) => runTool(tools.get(name)!, args, progress === undefined ? context : { ...context, progress }, deps.log));
}

/** The origin the client used to reach us, for links in answers. */
function originOf(request: HttpRequest): string {
  const proto = request.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  return `${proto}://${request.headers['host'] ?? 'localhost'}`;
}
