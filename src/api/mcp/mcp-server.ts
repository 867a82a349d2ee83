/**
 * The MCP servers of one endpoint: the SDK's low-level Server with the tool list computed once and
 * tools/call dispatched through runTool. Stateless mode gives each request its own transport; the
 * servers themselves are pooled and reconnected, because building one (it compiles a JSON Schema
 * validator) costs more than the call. The caller's context travels with the request, as authInfo.
 * Unknown tools are protocol errors (-32602), bad arguments are tool errors the agent can fix.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { runTool } from './run-tool.js';
import type { Endpoint, ToolContext, ToolDefinition } from './tool.js';

export const SERVER_NAME = 'quarry';

const ENDPOINT_INSTRUCTIONS: Readonly<Record<Endpoint, string>> = {
  core: 'Core code search and repository tools over the repositories this Quarry instance indexes.',
  all: 'The full suite of code search, repository and code navigation tools of this Quarry instance.',
  deepsearch: 'Deep Search agent tools only.',
};

export interface EndpointTools {
  readonly endpoint: Endpoint;
  readonly byName: ReadonlyMap<string, ToolDefinition>;
  /** The tools/list answer, built once. */
  readonly listing: { readonly tools: Tool[] };
}

export function endpointTools(endpoint: Endpoint, tools: readonly ToolDefinition[]): EndpointTools {
  return {
    endpoint,
    byName: new Map(tools.map((t) => [t.name, t])),
    listing: {
      tools: tools.map((t): Tool => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema as unknown as Tool['inputSchema'],
        annotations: { readOnlyHint: true, openWorldHint: false },
      })),
    },
  };
}

/** The per-call context minus the signal, which comes from the SDK (it aborts when the client leaves). */
export type CallContext = Omit<ToolContext, 'signal'>;

/** How a request's CallContext reaches the handlers: the transport hands authInfo to every one. */
export function authInfoFor(context: CallContext): AuthInfo {
  return { token: '', clientId: 'quarry', scopes: [...context.principal.scopes], extra: { context } };
}

function contextOf(extra: { readonly authInfo?: AuthInfo | undefined }): CallContext {
  const context = extra.authInfo?.extra?.['context'] as CallContext | undefined;
  if (context === undefined) throw new McpError(ErrorCode.InternalError, 'request context missing');
  return context;
}

export interface CallEnvironment {
  readonly version: string;
  readonly log: (line: string) => void;
  /** Names refused although the table lists them (SRC_MCP_DISABLE_DEEPSEARCH_TOOL). */
  readonly disabledTools: ReadonlySet<string>;
}

export function createMcpServer(tools: EndpointTools, env: CallEnvironment): Server {
  const server = new Server(
    { name: SERVER_NAME, version: env.version },
    { capabilities: { tools: {}, logging: {} }, instructions: ENDPOINT_INSTRUCTIONS[tools.endpoint] },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => tools.listing);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = tools.byName.get(name);
    if (env.disabledTools.has(name)) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} is disabled on this instance.`);
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Tools on this endpoint: ${[...tools.byName.keys()].join(', ') || 'none'}.`);
    }
    const answer = await runTool(tool, args, { ...contextOf(extra), signal: extra.signal }, env.log);
    // Text content only: Sourcegraph also mirrored it as structuredContent `{ text }`, which doubles
    // every answer on the wire and, in clients that show the model both, in the agent's context.
    return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}

/** Idle servers of one endpoint, reused one request at a time. */
export class ServerPool {
  private readonly idle: Server[] = [];

  constructor(private readonly build: () => Server, private readonly maxIdle = 64) {}

  acquire(): Server {
    return this.idle.pop() ?? this.build();
  }

  /** Only after server.close(): a closed server has no transport and can connect again. */
  release(server: Server): void {
    if (this.idle.length < this.maxIdle) this.idle.push(server);
  }
}
