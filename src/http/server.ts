/**
 * The uWebSockets.js HTTP server: snapshots each request (its credentials resolved once, on first
 * read, by the resolver it is given), applies the per-caller limits and the access guard, reads its
 * body (bounded), dispatches through the route table, records metrics, and shuts down gracefully.
 * Only this folder sees uWS.
 */
import { createError, errorMessage, publicMessage, QuarryError } from '../errors.js';
import { discardBody, hasBody, readBody, type BodyResult } from './body.js';
import type { Admission, Caller, CallerLimiter } from './caller-limits.js';
import type { Metrics } from './metrics.js';
import { snapshotRequest, type AuthResolver, type RequestHead, type ServedRequest } from './request.js';
import { createReply, type Headers, type Reply } from './respond.js';
import { answerUnmatched, matchRoute, type Route, type RouteMatch } from './routes.js';
import { binding, closeEverySocket, uws, type UwsBinding, type UwsListenSocket, type UwsResponse } from './uws.js';

interface ServerOptions<Auth> {
  readonly routes: readonly Route<Auth>[];
  /** Read per request, so a site configuration change applies at once. */
  readonly maxBodyBytes: () => number;
  readonly onLog?: (line: string) => void;
  readonly metrics?: Metrics;
  /** Per-caller limits; routes marked `unlimited` skip them. */
  readonly limits?: EdgeLimits<Auth>;
  /** Asked before any handler runs (after the limits): a refusal is the answer. */
  readonly guard?: (request: RequestHead<Auth>) => EdgeRefusal | null;
  /**
   * Awaited before a request is admitted or its credentials read (routes marked `unlimited`
   * aside): a shared store catching up with what other servers committed, so a revocation made
   * anywhere holds here from the next request on. A rejection is answered 503 with Retry-After
   * (the error's `details.retryAfterSeconds`, else 1): the store is away, try again.
   */
  readonly catchUp?: () => Promise<void>;
}

/**
 * `authenticate` makes `request.auth` of a request's credentials, at most once per request; the
 * edge's policies and the handler read that one result. Required unless handlers never read it.
 */
export type HttpServerOptions<Auth = unknown> = ServerOptions<Auth> &
  (unknown extends Auth ? { readonly authenticate?: AuthResolver<Auth> } : { readonly authenticate: AuthResolver<Auth> });

export interface EdgeLimits<Auth = unknown> {
  readonly limiter: CallerLimiter;
  /** Who is calling, from the request head alone (the body is not read yet). */
  readonly callerOf: (request: RequestHead<Auth>) => Caller;
}

export interface EdgeRefusal {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
}

export interface HttpServer {
  readonly binding: UwsBinding;
  readonly requestsInFlight: number;
  listen(host: string, port: number): Promise<{ port: number }>;
  /** Stops accepting, waits up to graceMs for requests in flight, then cuts the rest off and closes idle connections. */
  close(graceMs: number): Promise<{ cutOff: number }>;
}

interface InFlight {
  readonly res: UwsResponse;
  readonly request: ServedRequest<unknown>;
}

/** Requests the client abandoned: nginx's convention, so they stand apart from server errors. */
const CLIENT_WENT_AWAY = 499;

export function createHttpServer<Auth = unknown>(options: HttpServerOptions<Auth>): HttpServer {
  const log = options.onLog ?? (() => {});
  // The options demand a resolver unless Auth is unknown, and undefined is an unknown.
  const authenticate = options.authenticate ?? ((() => undefined) as unknown as AuthResolver<Auth>);
  const app = uws.App();
  const active = new Set<InFlight>();
  let idle: (() => void) | null = null;
  let listenSocket: UwsListenSocket | null = null;
  let closing = false;

  const limited = options.metrics?.counter('quarry_http_limited_total', 'Requests refused with 429 by the per-caller limits, by reason.', 'reason');
  const admit = (match: RouteMatch<Auth>, head: ServedRequest<Auth>): Admission | Promise<Admission> | null => {
    if (options.limits === undefined || (match.kind === 'found' && match.route.unlimited === true)) return null;
    const caller = options.limits.callerOf(head);
    head.owner = caller.key;
    return options.limits.limiter.admit(caller, head);
  };
  // Sourcegraph's answer (reference §3.2): 429, Retry-After, empty body.
  const tooMany = (reply: Reply, refused: Extract<Admission, { ok: false }>, closeConnection: boolean): void => {
    limited?.inc(refused.reason);
    reply.send(429, '', { 'Retry-After': String(refused.retryAfterSeconds) }, { closeConnection });
  };

  app.any('/*', (res, req) => {
    const started = performance.now();
    const head = snapshotRequest(res, req, authenticate);
    const match = matchRoute(options.routes, head.method, head.path);
    // Route templates, never raw paths: a scanner cannot grow the metrics without bound.
    const routeLabel = match.kind === 'not-found' ? 'unmatched' : match.path;
    const entry: InFlight = { res, request: head };
    // Bodies are bounded by the site configuration; a request without one (most GETs) never reads it.
    const bodied = hasBody(head);
    const serverBodyBytes = bodied ? options.maxBodyBytes() : 0;
    const maxBodyBytes = bodied ? Math.min(serverBodyBytes, match.kind === 'found' ? match.route.maxBodyBytes ?? Infinity : Infinity) : 0;
    active.add(entry);
    let release: (() => void) | null = null;
    const reply = createReply(res, head, {
      closing: () => closing,
      onFinish(status) {
        release?.();
        active.delete(entry);
        options.metrics?.recordRequest(routeLabel, status === 0 || head.aborted ? CLIENT_WENT_AWAY : status, (performance.now() - started) / 1000);
        if (active.size === 0) idle?.();
      },
    });
    if (closing) return reply.text(503, 'server is shutting down');
    if (options.catchUp !== undefined && !(match.kind === 'found' && match.route.unlimited === true)) {
      // The body is read meanwhile: uWS drops chunks that arrive with no onData waiting.
      const early = readBody(res, head, maxBodyBytes, serverBodyBytes);
      return void options.catchUp().then(() => {
        if (away) log('http: the store is reachable again');
        away = false;
        serve(early);
      }, (error: unknown) => early.then((result) => {
        if (!head.aborted) unavailable(reply, error, !result.ok);
      }));
    }
    return serve(null);

    /** The request once the store caught up; `early`: its body, already being read. */
    function serve(early: Promise<BodyResult> | null): void {
      const admission = admit(match, head);
      if (admission !== null && !(admission instanceof Promise)) {
        // Refused before its body was read: the body is read and dropped first, so the answer
        // reaches a client still uploading; a body over the limit is cut off by closing instead.
        if (!admission.ok) {
          if (early !== null) return void early.then((result) => { if (!head.aborted) tooMany(reply, admission, !result.ok && result.drained !== true); });
          if (!bodied) return tooMany(reply, admission, false);
          return void discardBody(res, head, serverBodyBytes).then((drained) => {
            if (!head.aborted) tooMany(reply, admission, !drained);
          });
        }
        release = admission.release;
      }
      const body = early ?? readBody(res, head, maxBodyBytes, serverBodyBytes);
      const answer = async (result: BodyResult): Promise<void> => {
        if (!result.ok) {
          if (result.status !== 0) reply.send(result.status, `${result.message}\n`, { 'Content-Type': 'text/plain; charset=utf-8' }, { closeConnection: result.status === 413 && result.drained !== true });
          return;
        }
        const refusal = options.guard?.(head) ?? null;
        if (refusal !== null) return reply.send(refusal.status, refusal.body, refusal.headers);
        if (match.kind !== 'found') return answerUnmatched(match, head, reply);
        try {
          head.body = result.body;
          await match.route.handler(head, reply);
        } catch (err) {
          log(`http: ${head.method} ${head.path} failed: ${errorMessage(err)}`);
          reply.json(500, { error: 'internal server error' });
        }
        if (!reply.finished) {
          log(`http: ${head.method} ${head.path} handler returned without answering`);
          reply.json(500, { error: 'internal server error' });
        }
      };
      if (!(admission instanceof Promise)) return void body.then(answer);
      // Queued: the body is read meanwhile; the slot, once granted, is released when the reply ends.
      void Promise.all([body, admission]).then(([result, admitted]) => {
        if (!admitted.ok) return reply.finished ? undefined : tooMany(reply, admitted, false);
        if (reply.finished) return admitted.release();
        release = admitted.release;
        return answer(result);
      });
    }
  });

  const storeAway = options.catchUp === undefined ? undefined : options.metrics?.counter('quarry_http_store_unavailable_total', 'Requests answered 503 because the shared store could not be reached.', 'reason');
  let away = false;
  const unavailable = (reply: Reply, error: unknown, closeConnection: boolean): void => {
    storeAway?.inc('catch-up');
    // Once per outage: every request of an outage fails alike.
    if (!away) log(`http: the store is unavailable, answering 503 until it is back: ${errorMessage(error)}`);
    away = true;
    const retry = error instanceof QuarryError && typeof error.details['retryAfterSeconds'] === 'number' ? error.details['retryAfterSeconds'] : 1;
    reply.send(503, `${publicMessage(error)}\n`, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(retry) }, { closeConnection });
  };

  return {
    binding,
    get requestsInFlight() {
      return active.size;
    },
    listen(host, port) {
      return new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (socket === false) return reject(createError('USAGE', `cannot listen on ${host}:${port} (address in use or not permitted)`));
          listenSocket = socket;
          resolve({ port: uws.us_socket_local_port(socket as never) });
        });
      });
    },
    async close(graceMs) {
      closing = true;
      if (listenSocket !== null) uws.us_listen_socket_close(listenSocket);
      listenSocket = null;
      if (active.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const cutOff = active.size;
      for (const { res, request } of [...active]) {
        if (request.aborted) continue;
        request.abort();
        res.close();
      }
      closeEverySocket(app);
      return { cutOff };
    },
  };
}
