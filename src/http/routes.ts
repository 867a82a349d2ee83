/**
 * The route table: method + path matches, and the plain 404 and 405 answers for the rest. A path
 * ending in `/*` matches everything under it (exact paths win); method `*` takes every method.
 * Handlers see only plain requests and replies, never uWS objects.
 */
import type { HttpRequest } from './request.js';
import type { Reply } from './respond.js';

export type Handler = (request: HttpRequest, reply: Reply) => void | Promise<void>;

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | '*';
  readonly path: string;
  readonly handler: Handler;
  /** Never counted against per-caller limits: health checks must answer while a caller is throttled. */
  readonly unlimited?: boolean;
}

/** `path` is the matched route's template (`/.api/mcp/*`), never the request's own path. */
export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly path: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[]; readonly path: string }
  | { readonly kind: 'not-found' };

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
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
