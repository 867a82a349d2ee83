/**
 * The MCP servers of one endpoint, inside a protocol thread: the SDK's low-level Server with the
 * tool list built once, and tools/call handed to a caller-supplied function (the main thread runs
 * the tool, reporting progress when the client sent a progress token). Stateless mode gives each request its own transport; servers are pooled and
 * reconnected, because building one (it compiles a JSON Schema validator) costs more than a call.
 * Unknown and disabled tools are protocol errors (-32602), as the 2025-11-25 spec asks for tools a
 * client cannot call; a call's arguments are checked here, as the client sent them, and bad ones are
 * tool errors (isError). Tools the site configuration disables are left out per request.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type ServerNotification, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { shorten } from '../../git/input.js';
import { checkArguments } from './arguments.js';
import type { DetachedArguments } from './call-arguments.js';
import type { ListedTool } from './protocol-messages.js';
import { DEFAULT_ANNOTATIONS, type Endpoint, type ProgressReporter, type ToolAnswer } from './tool.js';

export const SERVER_NAME = 'quarry';

const ENDPOINT_INSTRUCTIONS: Readonly<Record<Endpoint, string>> = {
  core: 'Core code search and repository tools over the repositories this Quarry instance indexes.',
  all: 'The full suite of code search, repository and code navigation tools of this Quarry instance.',
  deepsearch: 'Deep Search agent tools only.',
};

/** Runs a listed tool for the HTTP request `requestId`; the signal aborts when the client leaves; `progress` when the client asked for it. */
export type CallTool = (requestId: number, name: string, args: unknown, signal: AbortSignal, progress?: ProgressReporter) => Promise<ToolAnswer>;

export interface ServerEnvironment {
  readonly version: string;
  /** Refused for the life of the process (SRC_MCP_DISABLE_DEEPSEARCH_TOOL); the listings already leave them out. */
  readonly disabledTools: ReadonlySet<string>;
  /** Hidden and refused for the HTTP request `requestId`: the site setting `mcp.tools.disabled` as it found it. */
  disabledFor(requestId: number): ReadonlySet<string>;
  readonly callTool: CallTool;
}

/** How a request's id and its tool arguments reach the handlers: the transport hands authInfo to every one. */
export function authInfoFor(requestId: number, toolArguments: DetachedArguments): AuthInfo {
  return { token: '', clientId: 'quarry', scopes: [], extra: { requestId, toolArguments } };
}

interface HandlerExtra {
  readonly authInfo?: AuthInfo | undefined;
  readonly requestId: string | number;
}

function requestIdOf(extra: HandlerExtra): number {
  const id = extra.authInfo?.extra?.['requestId'];
  if (typeof id !== 'number') throw new McpError(ErrorCode.InternalError, 'request id missing');
  return id;
}

/** The call's arguments as sent (call-arguments.ts); the SDK's parsed copy only when none were detached. */
function rawArgumentsOf(extra: HandlerExtra, parsed: unknown): unknown {
  const detached = extra.authInfo?.extra?.['toolArguments'] as DetachedArguments | undefined;
  return detached?.has(extra.requestId) ? detached.get(extra.requestId) : parsed;
}

export function createMcpServer(endpoint: Endpoint, tools: readonly ListedTool[], env: ServerEnvironment): Server {
  const listing = {
    tools: tools.map((t): Tool => ({ name: t.name, description: t.description, inputSchema: { ...t.inputSchema, required: [...t.inputSchema.required] }, annotations: { ...DEFAULT_ANNOTATIONS, ...t.annotations } })),
  };
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema]));
  const server = new Server(
    { name: SERVER_NAME, version: env.version },
    { capabilities: { tools: {}, logging: {} }, instructions: ENDPOINT_INSTRUCTIONS[endpoint] },
  );
  server.setRequestHandler(ListToolsRequestSchema, (_, extra) => {
    const disabled = env.disabledFor(requestIdOf(extra));
    return disabled.size === 0 ? listing : { tools: listing.tools.filter((t) => !disabled.has(t.name)) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const disabled = env.disabledFor(requestIdOf(extra));
    // The same -32602 as an unknown tool (a client handles both alike: the tool is not in its list),
    // but saying why, so that neither the agent nor the person reading its log hunts for a typo.
    const available = (): string => [...schemas.keys()].filter((n) => !disabled.has(n)).join(', ') || 'none';
    const switchedOff = env.disabledTools.has(name) ? 'SRC_MCP_DISABLE_DEEPSEARCH_TOOL' : disabled.has(name) ? 'site setting mcp.tools.disabled' : null;
    if (switchedOff !== null) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} is disabled on this instance (${switchedOff}). Tools on this endpoint: ${available()}.`);
    const schema = schemas.get(name);
    if (schema === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${shorten(name, 80)}. Tools on this endpoint: ${available()}.`);
    // Checked here, so only plain flat values cross to the main thread: arbitrary JSON (nested a
    // thousand deep, say) could not be cloned there, or would overflow the stack doing it.
    const checked = checkArguments(schema, rawArgumentsOf(extra, args));
    const answer = checked.ok ? await env.callTool(requestIdOf(extra), name, checked.args, extra.signal, progressOf(request.params._meta?.progressToken, extra)) : { text: checked.message, isError: true };
    // Text content only: Sourcegraph also mirrored it as structuredContent `{ text }`, which doubles
    // every answer on the wire and, in clients that show the model both, in the agent's context.
    const files = (answer.resources ?? []).map((r) => ({ type: 'resource' as const, resource: r.blob === undefined ? { uri: r.uri, mimeType: r.mimeType, text: r.text ?? '' } : { uri: r.uri, mimeType: r.mimeType, blob: r.blob } }));
    return { content: [{ type: 'text', text: answer.text }, ...files], ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}

/**
 * Progress notifications for a call whose client sent a progress token, related to its request so
 * that the transport sends them on that request's SSE stream (bridge.ts chose SSE for it).
 */
function progressOf(token: string | number | undefined, extra: { sendNotification(n: ServerNotification): Promise<void> }): ProgressReporter | undefined {
  if (token === undefined) return undefined;
  // A client gone before the answer is no failure of the call: the notification is dropped.
  return (progress, message) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => {});
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
