/**
 * The load generator's HTTP client: node:http over one keep-alive agent per caller, whole answers
 * read. Loopback targets only; a failure says whether the connection dropped or timed out.
 */
import { Agent, request } from 'node:http';

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  /** Path and query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface Answer {
  readonly status: number;
  readonly body: Buffer;
}

/**
 * `dropped during upload`: writing the request failed (EPIPE) because the server had closed the
 * connection, e.g. after answering early with the rest of the body unread (that answer is then lost).
 */
export type FailureKind = 'dropped' | 'dropped during upload' | 'timeout';

export class RequestFailed extends Error {
  constructor(readonly kind: FailureKind, message: string) {
    super(message);
  }
}

export interface LoadClient {
  send(spec: RequestSpec, timeoutMs: number): Promise<Answer>;
  /** Ends every socket, in flight or idle: what is in flight fails as dropped. */
  close(): void;
}

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\/?$/;

/** A caller holding at most `sockets` keep-alive connections to `origin`. */
export function createLoadClient(origin: string, sockets: number): LoadClient {
  if (!LOOPBACK.test(origin)) throw new Error(`load tests target loopback addresses only, not ${origin}`);
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  return {
    send(spec, timeoutMs) {
      return new Promise((resolve, reject) => {
        const headers = spec.body ? { ...spec.headers, 'Content-Length': String(spec.body.length) } : spec.headers;
        const req = request({ host: hostname.replace(/^\[|\]$/g, ''), port, method: spec.method, path: spec.path, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
          });
          res.on('error', (error) => fail(new RequestFailed('dropped', error.message)));
        });
        const fail = (error: RequestFailed): void => {
          clearTimeout(timer);
          req.destroy();
          reject(error);
        };
        const timer = setTimeout(() => fail(new RequestFailed('timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);
        req.on('error', (error: NodeJS.ErrnoException) => {
          fail(error instanceof RequestFailed ? error : new RequestFailed(error.code === 'EPIPE' ? 'dropped during upload' : 'dropped', error.message));
        });
        req.end(spec.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
