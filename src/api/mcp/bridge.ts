/**
 * Carries one HTTP request through the SDK's web-standard Streamable HTTP transport: our plain
 * request becomes a Fetch Request, the transport's Response goes back through our Reply, whole
 * (JSON) or streamed (SSE, only when the request carries a progress token).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import { authInfoFor, type CallContext, type ServerPool } from './mcp-server.js';

/** The request headers the transport reads; copying only these keeps the Fetch Request cheap. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/** Hop-by-hop or recomputed by our writer: never copied from the transport's Response. */
const DROPPED_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive']);

export async function bridgeMcpRequest(request: HttpRequest, reply: Reply, servers: ServerPool, context: CallContext, extraHeaders: Readonly<Record<string, string>>): Promise<void> {
  const parsed = parseJson(request.body);
  const server = servers.acquire();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !asksForProgress(parsed),
  });
  await server.connect(transport);
  const closeServer = (): void => void server.close().catch(() => {});
  request.signal.addEventListener('abort', closeServer, { once: true });
  try {
    // The body is already read (and bounded) by the HTTP edge; an unparsable one goes to the
    // transport as bytes so that it answers with its own -32700 parse error.
    const fetchRequest = new Request(`http://mcp.invalid${request.path}`, {
      method: request.method,
      headers: TRANSPORT_HEADERS.flatMap((name) => (request.headers[name] === undefined ? [] : [[name, request.headers[name]!] as [string, string]])),
      ...(parsed === undefined && request.method === 'POST' ? { body: request.body } : {}),
    });
    const authInfo = authInfoFor(context);
    const response = await transport.handleRequest(fetchRequest, parsed === undefined ? { authInfo } : { parsedBody: parsed, authInfo });
    await sendResponse(response, reply, request.signal, extraHeaders);
  } finally {
    request.signal.removeEventListener('abort', closeServer);
    await server.close();
    servers.release(server);
  }
}

function parseJson(body: Uint8Array): unknown {
  if (body.byteLength === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function asksForProgress(message: unknown): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

async function sendResponse(response: Response, reply: Reply, signal: AbortSignal, extraHeaders: Readonly<Record<string, string>>): Promise<void> {
  const headers: Record<string, string> = { ...extraHeaders };
  response.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  });
  if (response.body === null) return reply.send(response.status, '', headers);
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return reply.send(response.status, new Uint8Array(await response.arrayBuffer()), headers);
  }
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const writer = reply.stream(response.status, headers);
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !(await writer.write(value))) break;
    }
    writer.end();
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
