/**
 * The HTTP side of the src-compatible client: GraphQL requests gzip-compressed as src-cli sends
 * them (reference §6.2), and the streaming search API read as server-sent events.
 */
import { gzipSync } from 'node:zlib';
import { createError } from '../../errors.js';
import type { RemoteEndpoint } from './endpoint.js';

export interface GraphQLReply {
  readonly data?: unknown;
  readonly errors?: readonly { readonly message: string }[];
}

function headers(endpoint: RemoteEndpoint, extra: Record<string, string>): Record<string, string> {
  return { 'User-Agent': 'quarry-cli', ...(endpoint.accessToken ? { Authorization: `token ${endpoint.accessToken}` } : {}), ...extra };
}

export async function postGraphQL(endpoint: RemoteEndpoint, query: string, variables: Record<string, unknown>): Promise<GraphQLReply> {
  const body = gzipSync(Buffer.from(JSON.stringify({ query, variables })));
  const response = await request(`${endpoint.url}/.api/graphql`, {
    method: 'POST',
    headers: headers(endpoint, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }),
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw createError('REMOTE_FAILED', `error: ${response.status} ${response.statusText}\n\n${text}`);
  try {
    return JSON.parse(text) as GraphQLReply;
  } catch {
    throw createError('REMOTE_FAILED', `the server answered with invalid JSON: ${text.slice(0, 200)}`);
  }
}

export interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Yields each server-sent event of a streaming search, in order. */
export async function* streamSearch(endpoint: RemoteEndpoint, query: string, display: number): AsyncGenerator<StreamEvent> {
  const params = new URLSearchParams({ q: query, v: 'V3', cm: 't', display: String(display) });
  const response = await request(`${endpoint.url}/.api/search/stream?${params}`, { headers: headers(endpoint, { Accept: 'text/event-stream' }) });
  if (response.status !== 200 || !response.body) {
    throw createError('REMOTE_FAILED', `error: ${response.status} ${response.statusText}\n\n${await response.text()}`);
  }
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      yield parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

function parseEvent(block: string): StreamEvent {
  const [eventLine = '', dataLine = ''] = block.split('\n');
  if (!eventLine.startsWith('event: ') || !dataLine.startsWith('data: ')) throw createError('REMOTE_FAILED', `malformed server-sent event: ${block.slice(0, 200)}`);
  return { event: eventLine.slice(7), data: JSON.parse(dataLine.slice(6)) as unknown };
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error' });
  } catch (err) {
    throw createError('REMOTE_FAILED', `cannot reach ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
  }
}
