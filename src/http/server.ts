/**
 * The uWebSockets.js HTTP server: snapshots each request, reads its body (bounded), dispatches
 * through the route table, records metrics, and shuts down gracefully. Only this folder sees uWS.
 */
import { createError, errorMessage } from '../errors.js';
import { readBody } from './body.js';
import type { Metrics } from './metrics.js';
import { snapshotRequest } from './request.js';
import { createReply } from './respond.js';
import { answerUnmatched, matchRoute, type Route } from './routes.js';
import { binding, uws, type UwsBinding, type UwsListenSocket, type UwsResponse } from './uws.js';

export interface HttpServerOptions {
  readonly routes: readonly Route[];
  /** Read per request, so a site configuration change applies at once. */
  readonly maxBodyBytes: () => number;
  readonly onLog?: (line: string) => void;
  readonly metrics?: Metrics;
}

export interface HttpServer {
  readonly binding: UwsBinding;
  readonly requestsInFlight: number;
  listen(host: string, port: number): Promise<{ port: number }>;
  /** Stops accepting, waits up to graceMs for requests in flight, then cuts the rest off. */
  close(graceMs: number): Promise<{ cutOff: number }>;
}

interface InFlight {
  readonly res: UwsResponse;
  readonly aborted: AbortController;
}

/** Requests the client abandoned: nginx's convention, so they stand apart from server errors. */
const CLIENT_WENT_AWAY = 499;

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const log = options.onLog ?? (() => {});
  const app = uws.App();
  const active = new Set<InFlight>();
  let idle: (() => void) | null = null;
  let listenSocket: UwsListenSocket | null = null;
  let closing = false;

  app.any('/*', (res, req) => {
    const started = performance.now();
    const aborted = new AbortController();
    const head = snapshotRequest(res, req, aborted);
    const match = matchRoute(options.routes, head.method, head.path);
    // Unknown paths share one label so that scanners cannot grow the metrics without bound.
    const routeLabel = match.kind === 'not-found' ? 'unmatched' : head.path;
    const entry: InFlight = { res, aborted };
    active.add(entry);
    const reply = createReply(res, aborted.signal, {
      closing: () => closing,
      onFinish(status) {
        active.delete(entry);
        options.metrics?.recordRequest(routeLabel, status === 0 || aborted.signal.aborted ? CLIENT_WENT_AWAY : status, (performance.now() - started) / 1000);
        if (active.size === 0) idle?.();
      },
    });
    if (closing) return reply.text(503, 'server is shutting down');
    const body = readBody(res, head, options.maxBodyBytes());
    void body.then(async (result) => {
      if (!result.ok) {
        if (result.status !== 0) reply.send(result.status, `${result.message}\n`, { 'Content-Type': 'text/plain; charset=utf-8' }, { closeConnection: result.status === 413 });
        return;
      }
      if (match.kind !== 'found') return answerUnmatched(match, head, reply);
      try {
        await match.route.handler({ ...head, body: result.body }, reply);
      } catch (err) {
        log(`http: ${head.method} ${head.path} failed: ${errorMessage(err)}`);
        reply.json(500, { error: 'internal server error' });
      }
      if (!reply.finished) {
        log(`http: ${head.method} ${head.path} handler returned without answering`);
        reply.json(500, { error: 'internal server error' });
      }
    });
  });

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
      for (const { res, aborted } of [...active]) {
        if (aborted.signal.aborted) continue;
        aborted.abort();
        res.close();
      }
      return { cutOff };
    },
  };
}
