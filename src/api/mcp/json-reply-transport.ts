/**
 * The common MCP request (one JSON-RPC request, not `initialize`, POSTed with the headers SDK
 * clients send, answered with JSON) carried to the SDK's Server without the SDK's web-standard
 * transport, which costs more than the call itself: a Fetch Request and Response, web streams, and
 * schema checks meant to fail (is it an initialize request? is this outgoing message a response?)
 * that build a ZodError, message text and all, every time. Anything else takes the SDK's transport,
 * which then answers as it always did.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

type HeaderList = readonly (readonly [string, string])[];

function header(headers: HeaderList, name: string): string | undefined {
  return headers.find(([key]) => key === name)?.[1];
}

/**
 * The request, when the SDK's transport would hand it to the server as it is: the checks of its
 * POST handling that a request could fail (Accept, Content-Type, protocol version, message shape)
 * all pass. Null sends it the SDK's way.
 */
export function plainJsonRequest(method: string, headers: HeaderList, parsed: unknown): JSONRPCRequest | null {
  if (method !== 'POST' || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const message = parsed as { method?: unknown; id?: unknown };
  if (message.method === 'initialize' || message.id === undefined) return null;
  const accept = header(headers, 'accept');
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  // The exact value SDK clients send; other spellings go the SDK's way, which parses media types.
  if (header(headers, 'content-type') !== 'application/json') return null;
  const version = header(headers, 'mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  const checked = JSONRPCRequestSchema.safeParse(parsed);
  return checked.success ? checked.data : null;
}

/**
 * A transport for one such request: the server's answer to it resolves `answer`; notifications
 * have nowhere to go in a JSON reply and are dropped, as the SDK's transport drops them. Closed
 * before an answer (the client left): null.
 */
export class JsonReplyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly answer: Promise<JSONRPCMessage | null>;
  private settle: (answer: JSONRPCMessage | null) => void = () => {};

  constructor(private readonly requestId: string | number) {
    this.answer = new Promise((resolve) => (this.settle = resolve));
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (('result' in message || 'error' in message) && message.id === this.requestId) this.settle(message);
  }

  async close(): Promise<void> {
    this.settle(null);
    this.onclose?.();
  }
}
