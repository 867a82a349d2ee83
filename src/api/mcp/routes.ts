/**
 * The MCP front door: `/.api/mcp`, `/.api/mcp/all` and `/.api/mcp/deepsearch` as routes. Stateless:
 * every POST gets its own SDK server and transport, so any process can answer any request; GET and
 * DELETE answer 405; with `mcp.enabled` false every path under `/.api/mcp` answers 404 `no route`.
 */
import type { AuthResult } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';
import { checkCaller, checkOrigin, corsHeaders, type OriginPolicy, type Refusal } from './access.js';
import { bridgeMcpRequest } from './bridge.js';
import { createMcpServer, endpointTools, ServerPool } from './mcp-server.js';
import { ENDPOINT_PATHS, IMPLEMENTED, toolsFor } from './registry.js';
import type { McpServices } from './services.js';
import type { Endpoint, ToolDefinition } from './tool.js';

export interface McpSettings {
  readonly enabled: boolean;
  readonly maxAnswerTokens: number;
}

export interface McpRouteDeps {
  /** Read per request: the site configuration applies without a restart. */
  readonly settings: () => McpSettings;
  readonly authenticate: (headers: Readonly<Record<string, string>>, query: URLSearchParams) => AuthResult;
  readonly repoAccess: (principal: Principal) => (repo: string) => boolean;
  readonly services: McpServices;
  readonly origins: OriginPolicy;
  readonly disableDeepsearchTool: boolean;
  readonly version: string;
  readonly log: (line: string) => void;
  /** The tools to serve; the registry's implemented tools unless a test brings its own. */
  readonly tools?: readonly ToolDefinition[];
}

const NO_QUERY = new URLSearchParams();

const METHOD_NOT_ALLOWED = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });

export function mcpRoutes(deps: McpRouteDeps): Route[] {
  const registryOptions = { disableDeepsearchTool: deps.disableDeepsearchTool };
  const disabledTools = new Set(deps.disableDeepsearchTool ? ['deepsearch'] : []);
  const environment = { version: deps.version, log: deps.log, disabledTools };
  const endpoints = (Object.keys(ENDPOINT_PATHS) as Endpoint[]).map((endpoint): Route[] => {
    const tools = endpointTools(endpoint, toolsFor(endpoint, registryOptions, deps.tools ?? IMPLEMENTED));
    const servers = new ServerPool(() => createMcpServer(tools, environment));
    const handler: Route['handler'] = (request, reply) => serve(deps, servers, request, reply);
    return [{ method: '*', path: ENDPOINT_PATHS[endpoint], handler }, { method: '*', path: `${ENDPOINT_PATHS[endpoint]}/`, handler }];
  });
  return [...endpoints.flat(), { method: '*', path: '/.api/mcp/*', handler: (_, reply) => reply.text(404, 'no route') }];
}

async function serve(deps: McpRouteDeps, servers: ServerPool, request: HttpRequest, reply: Reply): Promise<void> {
  const settings = deps.settings();
  if (!settings.enabled) return reply.text(404, 'no route');
  const refuse = (refusal: Refusal, extra: Record<string, string> = {}): void => reply.send(refusal.status, refusal.body, { ...refusal.headers, ...extra });
  const originRefusal = checkOrigin(request.headers, deps.origins);
  if (originRefusal !== null) return refuse(originRefusal);
  const cors = corsHeaders(request.headers);
  if (request.method === 'OPTIONS') return reply.send(204, '', { ...cors, 'Access-Control-Max-Age': '600' });
  // No `?token=`: MCP forbids access tokens in the URL, where proxies and logs keep them.
  const caller = checkCaller(deps.authenticate(request.headers, NO_QUERY));
  if (!('principal' in caller)) return refuse(caller, cors);
  if (request.method !== 'POST') return reply.send(405, METHOD_NOT_ALLOWED, { ...cors, 'Content-Type': 'application/json', Allow: 'POST, OPTIONS' });
  const context = {
    principal: caller.principal,
    canRead: deps.repoAccess(caller.principal),
    origin: originOf(request),
    maxAnswerTokens: settings.maxAnswerTokens,
    services: deps.services,
  };
  await bridgeMcpRequest(request, reply, servers, context, cors);
}

/** The origin the client used to reach us, for links in answers. */
function originOf(request: HttpRequest): string {
  const proto = request.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  return `${proto}://${request.headers['host'] ?? 'localhost'}`;
}
