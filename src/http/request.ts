/**
 * Snapshots a uWS request into plain data, synchronously (uWS request objects die when the handler
 * returns), and turns the connection's abort into an AbortSignal. Reads no body. The query string
 * is parsed, the AbortSignal made, the client's address read and the credentials resolved only when
 * someone asks for them: many requests never need one of them, and each costs more than the rest of
 * the snapshot (the address alone took a fifth of a bare server's throughput: uWS hands it over in a
 * fresh ArrayBuffer).
 */
import type { IncomingMessage } from 'node:http';
import { chargeSignalTo } from '../pool/work-owner.js';
import { binding, type UwsRequest, type UwsResponse } from './uws.js';

/**
 * `Auth` is what the server's resolver makes of a request's credentials (the composition root
 * chooses it; this folder never looks inside): resolved at most once, on first read, so the
 * edge's policies and the handler share one result.
 */
export interface HttpRequest<Auth = unknown> {
  /** Upper-case, e.g. "GET". */
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Aborts when the client goes away before the response ends. */
  readonly signal: AbortSignal;
  /** The client's address; '' once the client went away or the reply ended before anyone asked. */
  readonly remoteAddress: string;
  readonly auth: Auth;
  /** The caller the per-caller limits admitted this request for (its Caller.key); '' when none did. */
  readonly owner: string;
}

export type RequestHead<Auth = unknown> = Omit<HttpRequest<Auth>, 'body'>;

/** What a credentials resolver may read of a request. */
export type RequestCredentials = Pick<HttpRequest, 'method' | 'headers' | 'query' | 'remoteAddress'>;

export type AuthResolver<Auth> = (request: RequestCredentials) => Auth;

const NO_BODY = new Uint8Array(0);

/** One request as the server holds it: what handlers read, plus the abort the connection reports. */
export class ServedRequest<Auth = unknown> implements HttpRequest<Auth> {
  body: Uint8Array = NO_BODY;
  /** The caller the per-caller limits admitted this request for: its pool work is charged to it. */
  owner = '';
  private params: URLSearchParams | null = null;
  private address: string | null = null;
  private resolved: { readonly auth: Auth } | null = null;
  private controller: AbortController | null = null;
  private abortedFlag = false;
  private readonly onAbort: (() => void)[] = [];

  constructor(
    readonly method: string,
    readonly path: string,
    private readonly rawQuery: string,
    readonly headers: Readonly<Record<string, string>>,
    private readonly readAddress: () => string,
    private readonly resolveAuth: AuthResolver<Auth>,
  ) {}

  get remoteAddress(): string {
    return (this.address ??= this.readAddressWhileOpen());
  }

  get query(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.rawQuery));
  }

  get auth(): Auth {
    return (this.resolved ??= { auth: this.resolveAuth(this) }).auth;
  }

  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.owner !== '') chargeSignalTo(this.controller.signal, this.owner);
      if (this.abortedFlag) this.controller.abort();
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedFlag;
  }

  /** The server's own reactions to the abort (the reply's, the body reader's), called before the signal fires. */
  whenAborted(listener: () => void): void {
    this.onAbort.push(listener);
  }

  private readAddressWhileOpen(): string {
    if (this.abortedFlag) return '';
    try {
      return this.readAddress();
    } catch {
      // uWS refuses every read of a response that has ended.
      return '';
    }
  }

  abort(): void {
    if (this.abortedFlag) return;
    this.abortedFlag = true;
    for (const listener of this.onAbort) listener();
    this.controller?.abort();
  }
}

/** Must run before the handler's first await; installs the response's one onAborted handler. */
export function snapshotRequest<Auth>(res: UwsResponse, req: UwsRequest, resolveAuth: AuthResolver<Auth>): ServedRequest<Auth> {
  const request = binding === 'js-fallback' ? snapshotFallback(req, resolveAuth) : snapshotNative(res, req, resolveAuth);
  res.onAborted(() => request.abort());
  return request;
}

function snapshotNative<Auth>(res: UwsResponse, req: UwsRequest, resolveAuth: AuthResolver<Auth>): ServedRequest<Auth> {
  const headers: Record<string, string> = {};
  // uWS hands header names over already lower-cased.
  req.forEach((name, value) => {
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  });
  return new ServedRequest(req.getMethod().toUpperCase(), req.getUrl(), req.getQuery() ?? '', headers, () => Buffer.from(res.getRemoteAddressAsText()).toString(), resolveAuth);
}

/**
 * The pure-JS fallback leaves forEach and getRemoteAddressAsText unimplemented and its getQuery
 * throws on relative URLs; it wraps a node:http request, which has all of it.
 */
function snapshotFallback<Auth>(req: UwsRequest, resolveAuth: AuthResolver<Auth>): ServedRequest<Auth> {
  const incoming = (req as unknown as { request: IncomingMessage }).request;
  const url = new URL(incoming.url ?? '/', 'http://fallback');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const address = incoming.socket.remoteAddress ?? '';
  return new ServedRequest((incoming.method ?? 'GET').toUpperCase(), url.pathname, url.search.slice(1), headers, () => address, resolveAuth);
}
