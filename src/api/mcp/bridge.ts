/**
 * Carries one HTTP request to the SDK's Server, inside a protocol thread: the common request (one
 * JSON-RPC request answered with JSON) through json-reply-transport.ts, any other through the SDK's
 * web-standard Streamable HTTP transport, as a Fetch Request whose Response is handed on whole
 * (JSON) or chunk by chunk (SSE, only when the request carries a progress token). A body that
 * is JSON but no JSON-RPC message is refused here; tool arguments bypass the SDK's validation.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { detachToolArguments } from './call-arguments.js';
import { envelopeProblem, invalidRequestBody } from './jsonrpc-envelope.js';
import { JsonReplyTransport, plainJsonRequest } from './json-reply-transport.js';
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
  const authInfo = authInfoFor(requestId, toolArguments);
  const progress = asksForProgress(parsed);
  const plain = progress ? null : plainJsonRequest(request.method, request.headers, parsed);
  if (plain !== null) {
    const transport = new JsonReplyTransport(plain.id);
    return whileConnected(server, transport, abort, async () => {
      transport.onmessage?.(plain, { authInfo });
      const answer = await transport.answer;
      // Null: the client left and the call was cancelled; the main thread still hears that this request is over.
      sink.whole(answer === null ? 503 : 200, { 'content-type': 'application/json' }, new TextEncoder().encode(answer === null ? CANCELLED : JSON.stringify(answer)));
    });
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !progress });
  return whileConnected(server, transport, abort, async () => {
    // The body was read and bounded by the HTTP edge; an unparsable one goes to the transport
    // as bytes so that it answers with its own -32700 parse error.
    const fetchRequest = new Request(`http://mcp.invalid${request.path}`, {
      method: request.method,
      headers: request.headers as [string, string][],
      ...(parsed === undefined && request.method === 'POST' ? { body: request.body } : {}),
    });
    const response = await transport.handleRequest(fetchRequest, parsed === undefined ? { authInfo } : { parsedBody: parsed, authInfo });
    await forward(response, sink, abort);
  });
}

const CANCELLED = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'The request was cancelled.' }, id: null });

/** Runs `work` with the server connected to `transport`; the client leaving closes the server, which cancels the call. */
async function whileConnected(server: Server, transport: Transport, abort: AbortSignal, work: () => Promise<void>): Promise<void> {
  await server.connect(transport);
  const closeServer = (): void => void server.close().catch(() => {});
  abort.addEventListener('abort', closeServer, { once: true });
  try {
    await work();
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
