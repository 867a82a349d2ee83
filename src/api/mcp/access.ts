/**
 * Where an MCP request may come from, checked before its caller (auth/authorize.ts) and before
 * the SDK sees it: DNS-rebinding and Origin checks (403), and CORS for allowed origins.
 */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OriginPolicy {
  /**
   * The server listens on a loopback address: then the Host header must name a loopback host
   * (or an allowed origin's host), which is what defeats DNS rebinding.
   */
  readonly loopbackListen: boolean;
  /** Browser origins allowed besides the server's own. */
  readonly allowedOrigins: readonly string[];
}

export type Refusal = { readonly status: number; readonly body: string; readonly headers: Readonly<Record<string, string>> };

const FORBIDDEN_RPC = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden' }, id: null });

/** Null when the request's Host and Origin are acceptable. */
export function checkOrigin(headers: Readonly<Record<string, string>>, policy: OriginPolicy): Refusal | null {
  const host = (headers['host'] ?? '').toLowerCase();
  const allowedHosts = policy.allowedOrigins.map((o) => new URL(o).host);
  const hostOk = !policy.loopbackListen || LOOPBACK_HOSTNAMES.has(hostnameOf(host)) || allowedHosts.includes(host);
  const origin = headers['origin'];
  const originOk = origin === undefined || policy.allowedOrigins.includes(origin) || sameHost(origin, host);
  return hostOk && originOk ? null : { status: 403, body: FORBIDDEN_RPC, headers: { 'Content-Type': 'application/json' } };
}

function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0] ?? '';
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host;
  } catch {
    return false;
  }
}

/** CORS answer headers for a request that passed checkOrigin; none without an Origin. */
export function corsHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const origin = headers['origin'];
  if (origin === undefined) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id',
    'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
    Vary: 'Origin',
  };
}
