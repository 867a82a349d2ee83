/**
 * A loopback HTTP proxy that adds a Quarry access token to requests that carry none, for clients
 * that cannot send credentials (the conformance suite). Everything else passes verbatim, the
 * original Host and Origin included, so Quarry's own DNS-rebinding checks see what the client sent;
 * answers stream back chunk by chunk (SSE). It records each exchange for tests to inspect.
 */
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedExchange {
  readonly method: string;
  readonly path: string;
  readonly requestBody: string;
  readonly status: number;
  readonly contentType: string;
}

export interface AuthProxy {
  /** `http://localhost:<port>`: the conformance suite derives the Host it expects accepted from this. */
  readonly url: string;
  readonly exchanges: readonly ProxiedExchange[];
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, token: string): Promise<AuthProxy> {
  const upstream = new URL(target);
  const exchanges: ProxiedExchange[] = [];
  const server = createServer((req, res) => relay(req, res, upstream, token, exchanges));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    exchanges,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function relay(req: IncomingMessage, res: ServerResponse, upstream: URL, token: string, exchanges: ProxiedExchange[]): void {
  const chunks: Buffer[] = [];
  const outgoing = forward({
    host: upstream.hostname,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers: { ...req.headers, authorization: req.headers.authorization ?? `token ${token}` },
  });
  outgoing.on('response', (answer) => {
    const status = answer.statusCode ?? 502;
    exchanges.push({
      method: req.method ?? '',
      path: req.url ?? '',
      requestBody: Buffer.concat(chunks).toString('utf8'),
      status,
      contentType: answer.headers['content-type'] ?? '',
    });
    res.writeHead(status, answer.headers);
    // Piping writes each chunk as it arrives, so SSE events reach the client unbuffered.
    answer.pipe(res);
  });
  outgoing.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end(`auth proxy: ${error.message}`);
  });
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.pipe(outgoing);
}
