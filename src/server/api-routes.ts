/**
 * The API front doors as routes: GraphQL (`POST /.api/graphql`) and the debug console page and
 * its assets. GraphQL serves the request's authentication as auth/authorize.ts allows; the
 * console page and assets hold no data and are open (the page asks for a token).
 */
import type { GraphQLHandler } from '../api/graphql/handler.js';
import { consoleAsset, CONSOLE_ASSET_NAMES } from '../api/pages/console-assets.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_PATH, consolePage } from '../api/pages/console-page.js';
import { authorize, type SiteAccess } from '../auth/authorize.js';
import type { Authentication } from '../auth/principal.js';
import type { Route } from '../http/routes.js';

export interface ApiRouteDeps {
  readonly graphql: GraphQLHandler;
  /** Site setting `auth.public`, read per request. */
  readonly site: () => SiteAccess;
}

export const GRAPHQL_PATH = '/.api/graphql';

const JSON_VARY_AUTHORIZATION = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Authorization' });

export function apiRoutes(deps: ApiRouteDeps): Route<Authentication>[] {
  return [
    {
      method: 'POST',
      path: GRAPHQL_PATH,
      async handler(request, reply) {
        const decision = authorize(request.auth, 'graphql', deps.site);
        if (!decision.ok) return reply.send(decision.answer.status, decision.answer.body, decision.answer.headers);
        const { principal } = decision;
        const response = await deps.graphql(
          { body: request.body, name: request.query.toString() },
          { principal, get signal() { return request.signal; } },
        );
        reply.send(response.status, response.body, JSON_VARY_AUTHORIZATION);
      },
    },
    { method: 'GET', path: CONSOLE_PATH, handler: (_, reply) => reply.send(200, consolePage(), { 'Content-Type': 'text/html; charset=utf-8' }) },
    ...CONSOLE_ASSET_NAMES.map((name): Route => ({
      method: 'GET',
      path: `${CONSOLE_ASSETS_PATH}${name}`,
      handler(_, reply) {
        const asset = consoleAsset(name)!;
        reply.send(200, asset.body, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
      },
    })),
  ];
}
