/**
 * Carries one HTTP request through the SDK's web-standard Streamable HTTP transport, inside a
 * protocol thread: the request becomes a Fetch Request, and the transport's Response is handed on
 * whole (JSON) or chunk by chunk (SSE, only when the request carries a progress token). A body that
 * is JSON but no JSON-RPC message is refused here; tool arguments bypass the SDK's validation.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { detachToolArguments } from './call-arguments.js';
import { envelopeProblem, invalidRequestBody } from './jsonrpc-envelope.js';
import { authInfoFor } from './mcp-server.js';

export interface PlainRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

export interface ResponseSink {
  whole(status: number, headers: Record<string, string>, body: Uint8Array): void;
  streamHead(status: number, headers: Record<string, string>): void;
  streamChunk(chunk: Uint8Array): void;
  streamEnd(): void;
}

/** Hop-by-hop or recomputed by the HTTP writer: never copied from the transport's Response. */
const DROPPED_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive']);

/** Resolves once the answer went to the sink; `abort` ends the call early (the client left). */
export async function bridgeMcpRequest(request: PlainRequest, server: Server, requestId: number, sink: ResponseSink, abort: AbortSignal): Promise<void> {
  const parsed = parseJson(request.body);
  const problem = parsed === undefined ? null : envelopeProblem(parsed);
  // Encoded into its own buffer (not Buffer's shared pool): the sink transfers it to the main thread.
  if (problem !== null) return sink.whole(400, { 'content-type': 'application/json' }, new TextEncoder().encode(invalidRequestBody(problem)));
  const toolArguments = detachToolArguments(parsed);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(parsed) });
  await server.connect(transport);
  const closeServer = (): void => void server.close().catch(() => {});
  abort.addEventListener('abort', closeServer, { once: true });
  try {
    // The body was read and bounded by the HTTP edge; an unparsable one goes to the transport
    // as bytes so that it answers with its own -32700 parse error.
    const fetchRequest = new Request(`http://mcp.invalid${request.path}`, {
      method: request.method,
      headers: request.headers as [string, string][],
      ...(parsed === undefined && request.method === 'POST' ? { body: request.body } : {}),
    });
    const authInfo = authInfoFor(requestId, toolArguments);
    const response = await transport.handleRequest(fetchRequest, parsed === undefined ? { authInfo } : { parsedBody: parsed, authInfo });
    await forward(response, sink, abort);
  } finally {
    abort.removeEventListener('abort', closeServer);
    await server.close();
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

async function forward(response: Response, sink: ResponseSink, abort: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  });
  if (response.body === null) return sink.whole(response.status, headers, new Uint8Array(0));
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return sink.whole(response.status, headers, new Uint8Array(await response.arrayBuffer()));
  }
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  abort.addEventListener('abort', cancel, { once: true });
  try {
    sink.streamHead(response.status, headers);
    for (;;) {
      const { done, value } = await reader.read();
      if (done || abort.aborted) break;
      sink.streamChunk(value);
    }
    sink.streamEnd();
  } finally {
    abort.removeEventListener('abort', cancel);
  }
}
