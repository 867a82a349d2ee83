/**
 * One HTTP request on a connection of its own (node:http, no agent), for tests that pause between
 * requests longer than the server keeps an idle connection: fetch would reuse a pooled connection
 * the server just closed, and fail with "fetch failed" though the server is fine.
 */
import { request } from 'node:http';

export interface FreshAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export function freshRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<FreshAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false, timeout: init.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${init.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(init.body);
  });
}
