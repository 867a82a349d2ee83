/**
 * The MCP servers of one endpoint, inside a protocol thread: the SDK's low-level Server with the
 * tool list built once, and tools/call handed to a caller-supplied function (the main thread runs
 * the tool). Stateless mode gives each request its own transport; servers are pooled and
 * reconnected, because building one (it compiles a JSON Schema validator) costs more than a call.
 * Unknown and disabled tools are protocol errors (-32602), as the 2025-11-25 spec asks.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ListedTool } from './protocol-messages.js';
import type { Endpoint, ToolAnswer } from './tool.js';

export const SERVER_NAME = 'quarry';

const ENDPOINT_INSTRUCTIONS: Readonly<Record<Endpoint, string>> = {
  core: 'Core code search and repository tools over the repositories this Quarry instance indexes.',
  all: 'The full suite of code search, repository and code navigation tools of this Quarry instance.',
  deepsearch: 'Deep Search agent tools only.',
};

/** Runs a listed tool for the HTTP request `requestId`; the signal aborts when the client leaves. */
export type CallTool = (requestId: number, name: string, args: unknown, signal: AbortSignal) => Promise<ToolAnswer>;

export interface ServerEnvironment {
  readonly version: string;
  readonly disabledTools: ReadonlySet<string>;
  readonly callTool: CallTool;
}

/** How a request's id reaches the handlers: the transport hands authInfo to every one. */
export function authInfoFor(requestId: number): AuthInfo {
  return { token: '', clientId: 'quarry', scopes: [], extra: { requestId } };
}

function requestIdOf(extra: { readonly authInfo?: AuthInfo | undefined }): number {
  const id = extra.authInfo?.extra?.['requestId'];
  if (typeof id !== 'number') throw new McpError(ErrorCode.InternalError, 'request id missing');
  return id;
}

export function createMcpServer(endpoint: Endpoint, tools: readonly ListedTool[], env: ServerEnvironment): Server {
  const listing = {
    tools: tools.map((t): Tool => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'], annotations: { readOnlyHint: true, openWorldHint: false } })),
  };
  const names = new Set(tools.map((t) => t.name));
  const server = new Server(
    { name: SERVER_NAME, version: env.version },
    { capabilities: { tools: {}, logging: {} }, instructions: ENDPOINT_INSTRUCTIONS[endpoint] },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (env.disabledTools.has(name)) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} is disabled on this instance.`);
    if (!names.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Tools on this endpoint: ${[...names].join(', ') || 'none'}.`);
    const answer = await env.callTool(requestIdOf(extra), name, args, extra.signal);
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
