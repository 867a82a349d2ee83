/**
 * Snapshots a uWS request into plain data, synchronously (uWS request objects die when the handler
 * returns), and turns the connection's abort into an AbortSignal. Reads no body.
 */
import type { IncomingMessage } from 'node:http';
import { binding, type UwsRequest, type UwsResponse } from './uws.js';

export interface HttpRequest {
  /** Upper-case, e.g. "GET". */
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Aborts when the client goes away before the response ends. */
  readonly signal: AbortSignal;
  readonly remoteAddress: string;
}

export type RequestHead = Omit<HttpRequest, 'body'>;

/** Must run before the handler's first await; installs the response's one onAborted handler. */
export function snapshotRequest(res: UwsResponse, req: UwsRequest, aborted: AbortController): RequestHead {
  res.onAborted(() => aborted.abort());
  if (binding === 'js-fallback') return snapshotFallback(req, aborted.signal);
  const headers: Record<string, string> = {};
  // uWS hands header names over already lower-cased.
  req.forEach((name, value) => {
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  });
  return {
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    query: new URLSearchParams(req.getQuery() ?? ''),
    headers,
    signal: aborted.signal,
    remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
}

/**
 * The pure-JS fallback leaves forEach and getRemoteAddressAsText unimplemented and its getQuery
 * throws on relative URLs; it wraps a node:http request, which has all of it.
 */
function snapshotFallback(req: UwsRequest, signal: AbortSignal): RequestHead {
  const incoming = (req as unknown as { request: IncomingMessage }).request;
  const url = new URL(incoming.url ?? '/', 'http://fallback');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: (incoming.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, headers, signal,
    remoteAddress: incoming.socket.remoteAddress ?? '',
  };
}
