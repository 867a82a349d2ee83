/**
 * Fetches a client ID metadata document (draft-ietf-oauth-client-id-metadata-document) with the
 * SSRF guards the MCP spec asks for: https only, the host resolved once and every address checked
 * (no private, reserved or, unless allowed, loopback address), the connection pinned to the checked
 * address, no redirects, bounded time and size. Returns the body and its cache lifetime, or why not.
 */
import { lookup } from 'node:dns/promises';
import { request, type RequestOptions } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface FetchPolicy {
  /** Loopback addresses (127.0.0.0/8, ::1) may be fetched: tests, and a client on the server's own machine. */
  readonly allowLoopback: boolean;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export type FetchedDocument =
  | { readonly ok: true; readonly body: string; readonly maxAgeSeconds: number }
  | { readonly ok: false; readonly problem: string };

/** When the document says nothing about caching; and the longest we keep one whatever it says. */
const DEFAULT_MAX_AGE_SECONDS = 300;
const LONGEST_MAX_AGE_SECONDS = 86_400;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Everything that is not public unicast (IPv4 rules also match IPv4-mapped IPv6 addresses). */
const RESERVED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) RESERVED.addSubnet(network, prefix, 'ipv6');

/** What kind of address may not be fetched (`a loopback address`), or null. */
function refusedKind(address: string, family: 4 | 6, policy: FetchPolicy): string | null {
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (RESERVED.check(address, type)) return 'a private or reserved address';
  if (LOOPBACK.check(address, type) && !policy.allowLoopback) return 'a loopback address';
  return null;
}

async function resolveChecked(host: string, policy: FetchPolicy): Promise<{ address: string; family: 4 | 6 } | string> {
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return `the host ${host} does not resolve`;
    }
  }
  // Every address is checked: a name that resolves to a public and a private address is refused.
  for (const { address, family } of addresses) {
    const kind = refusedKind(address, family === 6 ? 6 : 4, policy);
    if (kind !== null) return `${literal === 0 ? `the host ${host} resolves to ${address},` : `the address ${address} is`} ${kind}; it is not fetched`;
  }
  const first = addresses[0];
  return first === undefined ? `the host ${host} does not resolve` : { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The Cache-Control lifetime: none for no-store/no-cache, max-age bounded, a default otherwise. */
export function cacheSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase().split(',').map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)?.[1]).find((v) => v !== undefined);
  return maxAge === undefined ? DEFAULT_MAX_AGE_SECONDS : Math.min(Number(maxAge), LONGEST_MAX_AGE_SECONDS);
}

export async function fetchMetadataDocument(url: URL, policy: FetchPolicy): Promise<FetchedDocument> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const resolved = await Promise.race([
    resolveChecked(host, policy),
    new Promise<string>((resolve) => deadline.addEventListener('abort', () => resolve(`resolving ${host} took over ${policy.timeoutMs} ms`))),
  ]);
  if (typeof resolved === 'string') return { ok: false, problem: resolved };
  // The connection goes to the address checked above, never to a second answer from DNS.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [resolved]);
    else callback(null, resolved.address, resolved.family);
  };
  const options: RequestOptions = { method: 'GET', headers: { accept: 'application/json' }, lookup: pinned, signal: deadline, agent: false };
  return new Promise<FetchedDocument>((resolve) => {
    const refuse = (problem: string) => resolve({ ok: false, problem });
    const call = request(url, options, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.destroy();
        return refuse(`it answered ${status}, a redirect; redirects are not followed`);
      }
      if (status !== 200) {
        response.destroy();
        return refuse(`it answered HTTP ${status}`);
      }
      const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!/^application\/([a-z0-9.+-]+\+)?json$/.test(type)) {
        response.destroy();
        return refuse(`its Content-Type is ${JSON.stringify(type)}, not application/json`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          response.destroy();
          refuse(`it is larger than ${policy.maxBytes} bytes`);
        } else {
          chunks.push(chunk);
        }
      });
      response.on('end', () => resolve({ ok: true, body: Buffer.concat(chunks).toString('utf8'), maxAgeSeconds: cacheSeconds(response.headers['cache-control']) }));
      response.on('error', () => refuse(deadline.aborted ? `it took over ${policy.timeoutMs} ms` : 'the connection broke while reading it'));
    });
    call.on('error', (error: NodeJS.ErrnoException) => refuse(deadline.aborted ? `it took over ${policy.timeoutMs} ms` : `it could not be fetched (${error.code ?? error.message})`));
    call.end();
  });
}
