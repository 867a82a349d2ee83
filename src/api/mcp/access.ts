/**
 * Who may reach an MCP endpoint, decided before the SDK sees the request: DNS-rebinding and
 * Origin checks (403), credentials (401 with a Bearer challenge), token scope (403
 * insufficient_scope) and the MCP#ACCESS permission (403 `forbidden`), with CORS for allowed origins.
 */
import { hasPermission, hasScope, type AuthResult } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';

export const MCP_PERMISSION = 'MCP#ACCESS';
const ACCEPTED_SCOPES = ['mcp', 'user:all', 'site-admin:sudo'];
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

function challenge(error: string, description: string): string {
  return `Bearer realm="Quarry", error="${error}", error_description="${description.replace(/["\\]/g, '')}", scope="mcp"`;
}

/** The principal, or the refusal of reference §1.5 and mcp-auth §3.2. */
export function checkCaller(auth: AuthResult): { readonly principal: Principal } | Refusal {
  if (!auth.ok) {
    const headers = { 'Content-Type': 'application/json', 'WWW-Authenticate': challenge('invalid_token', auth.failure.message) };
    return { status: 401, body: JSON.stringify({ error: 'invalid_token', error_description: auth.failure.message }), headers };
  }
  const { principal } = auth;
  if (principal.userId === null) {
    const message = 'Authorization required: send an access token with the mcp or user:all scope.';
    return { status: 401, body: JSON.stringify({ error: 'invalid_token', error_description: message }), headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': challenge('invalid_token', message) } };
  }
  if (!ACCEPTED_SCOPES.some((scope) => hasScope(principal, scope))) {
    const message = 'This access token lacks the mcp scope.';
    return { status: 403, body: JSON.stringify({ error: 'insufficient_scope', error_description: message }), headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': challenge('insufficient_scope', message) } };
  }
  if (!hasPermission(principal, MCP_PERMISSION)) return { status: 403, body: 'forbidden\n', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  return { principal };
}
