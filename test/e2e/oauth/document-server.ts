/**
 * A real HTTPS server on loopback that serves client ID metadata documents for the tests: its
 * certificate (for IP 127.0.0.1) is made with openssl into a temp dir, and the Quarry server under
 * test trusts it through NODE_EXTRA_CA_CERTS. Each path answers as the test scripted it, and every
 * request is counted.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '../../git/fixtures.js';

export interface ScriptedAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Answer only after this long (a slow or stuck host). */
  readonly delayMs?: number;
}

export interface DocumentServer {
  readonly origin: string;
  /** The file NODE_EXTRA_CA_CERTS must name for a client to trust this server. */
  readonly certificateFile: string;
  /** What `path` answers from now on; a function sees how many times it was asked before. */
  answer(path: string, script: ScriptedAnswer | ((previousRequests: number) => ScriptedAnswer)): void;
  requests(path: string): number;
  close(): Promise<void>;
}

/** A JSON document answer, cacheable for `maxAge` seconds unless `cacheControl` says otherwise. */
export function jsonDocument(document: unknown, cacheControl = 'max-age=300'): ScriptedAnswer {
  return { headers: { 'content-type': 'application/json', 'cache-control': cacheControl }, body: typeof document === 'string' ? document : JSON.stringify(document) };
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const dir = makeTempDir('quarry-cimd-tls');
  const key = join(dir, 'key.pem');
  const certificateFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', certificateFile], { stdio: 'pipe' });
  const scripts = new Map<string, ScriptedAnswer | ((previous: number) => ScriptedAnswer)>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(certificateFile) }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    const previous = counts.get(path) ?? 0;
    counts.set(path, previous + 1);
    const scripted = scripts.get(path);
    const answer = typeof scripted === 'function' ? scripted(previous) : scripted ?? { status: 404, body: 'not found' };
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(answer.status ?? 200, answer.headers ?? {});
      response.end(answer.body ?? '');
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `https://127.0.0.1:${port}`,
    certificateFile,
    answer: (path, script) => void scripts.set(path, script),
    requests: (path) => counts.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      removeDir(dir);
    },
  };
}
