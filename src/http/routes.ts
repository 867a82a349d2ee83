/**
 * The route table: method + path matches, and the plain 404 and 405 answers for the rest. A path
 * ending in `/*` matches everything under it (exact paths win); method `*` takes every method.
 * Handlers see only plain requests and replies, never uWS objects.
 */
import type { HttpRequest } from './request.js';
import type { Reply } from './respond.js';

/** `Auth`: what the server's resolver makes of the credentials (request.ts); `unknown` for handlers that never read it. */
export type Handler<Auth = unknown> = (request: HttpRequest<Auth>, reply: Reply) => void | Promise<void>;

export interface Route<Auth = unknown> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | '*';
  readonly path: string;
  readonly handler: Handler<Auth>;
  /** Never counted against per-caller limits: health checks must answer while a caller is throttled. */
  readonly unlimited?: boolean;
  /**
   * A tighter body bound than the server's own, for a door whose valid requests are all small: a
   * larger body is refused (413) uncopied and unparsed (declared within the server's bound: read and
   * dropped first, so the client gets the answer on a connection that stays open).
   */
  readonly maxBodyBytes?: number;
}

/** `path` is the matched route's template (`/.api/mcp/*`), never the request's own path. */
export type RouteMatch<Auth = unknown> =
  | { readonly kind: 'found'; readonly route: Route<Auth>; readonly path: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[]; readonly path: string }
  | { readonly kind: 'not-found' };

export function matchRoute<Auth>(routes: readonly Route<Auth>[], method: string, path: string): RouteMatch<Auth> {
  let onPath = routes.filter((r) => r.path === path);
  if (onPath.length === 0) onPath = routes.filter((r) => r.path.endsWith('/*') && path.startsWith(r.path.slice(0, -1)));
  if (onPath.length === 0) return { kind: 'not-found' };
  const route = onPath.find((r) => r.method === method || r.method === '*' || (method === 'HEAD' && r.method === 'GET'));
  const template = onPath[0]!.path;
  return route ? { kind: 'found', route, path: template } : { kind: 'method-not-allowed', allow: onPath.map((r) => r.method), path: template };
}

export function answerUnmatched(match: Exclude<RouteMatch, { kind: 'found' }>, request: Pick<HttpRequest, 'method' | 'path'>, reply: Reply): void {
  if (match.kind === 'not-found') reply.text(404, `404 page not found: ${request.path}`);
  else reply.text(405, `method ${request.method} not allowed (allowed: ${match.allow.join(', ')})`, { Allow: match.allow.join(', ') });
}
