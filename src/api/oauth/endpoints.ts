/**
 * The authorization server's machine endpoints under `/.auth/idp/oauth/`: register (RFC 7591),
 * token, device/code (RFC 8628), revoke (RFC 7009), introspect (RFC 7662), userinfo and an empty
 * JWKS. JSON out, `Cache-Control: no-store` on everything that carries a secret, CORS open (no
 * cookie is ever read here, so any origin may call). No secret is logged.
 */
import type { OAuthFailure, OAuthResult } from '../../auth/oauth/oauth-error.js';
import { OAUTH_BASE } from '../../auth/oauth/metadata.js';
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { Authentication } from '../../auth/principal.js';
import type { HttpRequest } from '../../http/request.js';
import type { Reply } from '../../http/respond.js';
import type { Route } from '../../http/routes.js';

export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, content-type, mcp-protocol-version',
  'Access-Control-Expose-Headers': 'www-authenticate',
} as const;
const NO_STORE = { ...CORS, 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

function fail(reply: Reply, failure: OAuthFailure, request: HttpRequest): void {
  const challenge: Record<string, string> = failure.status === 401 && /^basic\s/i.test(request.headers['authorization'] ?? '') ? { 'WWW-Authenticate': 'Basic realm="Quarry"' } : {};
  reply.json(failure.status, { error: failure.error, error_description: failure.description }, { ...NO_STORE, ...challenge });
}

function answer<T>(reply: Reply, request: HttpRequest, result: OAuthResult<T>, status = 200): void {
  if (!result.ok) return fail(reply, result.failure, request);
  if (result.value === null) reply.send(status, '', NO_STORE);
  else reply.json(status, result.value, NO_STORE);
}

/** The form of a token-style request, or the failure to answer. */
function formOf(request: HttpRequest): URLSearchParams | OAuthFailure {
  if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return { status: 400, error: 'invalid_request', description: 'send the parameters as application/x-www-form-urlencoded' };
  }
  const form = new URLSearchParams(Buffer.from(request.body).toString('utf8'));
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return { status: 400, error: 'invalid_request', description: `${name} is given more than once` };
  }
  return form;
}

type FormHandler = (idp: IdentityProvider, request: HttpRequest, form: URLSearchParams, origin: string) => OAuthResult<unknown>;

function formRoute(idp: IdentityProvider, name: string, handle: FormHandler): Route {
  return {
    method: 'POST', path: `${OAUTH_BASE}/${name}`, handler(request, reply) {
      const form = formOf(request);
      if (!(form instanceof URLSearchParams)) return fail(reply, form, request);
      answer(reply, request, handle(idp, request, form, idp.origin(request.headers)));
    },
  };
}

const NOT_FOUND = { error: 'not found' };

export function endpointRoutes(idp: IdentityProvider): Route<Authentication>[] {
  const routes: Route<Authentication>[] = [
    {
      method: 'POST', path: `${OAUTH_BASE}/register`, handler(request, reply) {
        if (!idp.dynamicRegistration()) return reply.json(404, NOT_FOUND, CORS);
        let body: unknown;
        try {
          body = JSON.parse(Buffer.from(request.body).toString('utf8'));
        } catch {
          return reply.json(400, { error: 'invalid_client_metadata', error_description: 'the body must be JSON client metadata (RFC 7591)' }, NO_STORE);
        }
        answer(reply, request, idp.register(body), 201);
      },
    },
    formRoute(idp, 'token', (p, request, form, origin) => p.token(request.headers['authorization'], form, origin)),
    formRoute(idp, 'device/code', (p, request, form, origin) => p.deviceAuthorization(request.headers['authorization'], form, origin)),
    formRoute(idp, 'revoke', (p, request, form) => p.revoke(request.headers['authorization'], form)),
    formRoute(idp, 'introspect', (p, request, form, origin) => p.introspect(request.headers['authorization'], form, origin)),
    { method: 'GET', path: `${OAUTH_BASE}/jwks`, handler: (_, reply) => reply.json(200, { keys: [] }, CORS) },
  ];
  const userinfo: Route<Authentication>['handler'] = (request, reply) => {
    const auth = request.auth;
    if (!auth.ok || auth.principal.userId === null || auth.via !== 'header') {
      return reply.json(401, { error: 'invalid_token', error_description: 'send a live access token as Authorization: Bearer' }, { ...NO_STORE, 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    const { principal } = auth;
    reply.json(200, { sub: String(principal.userId), preferred_username: principal.username }, NO_STORE);
  };
  routes.push({ method: 'GET', path: `${OAUTH_BASE}/userinfo`, handler: userinfo }, { method: 'POST', path: `${OAUTH_BASE}/userinfo`, handler: userinfo });
  // Browser clients ask first; every endpoint here takes any origin.
  routes.push({ method: '*', path: `${OAUTH_BASE}/*`, handler: (request, reply) => (request.method === 'OPTIONS' ? reply.send(204, '', { ...CORS, 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Max-Age': '600' }) : reply.json(404, NOT_FOUND, CORS)) });
  return routes;
}
