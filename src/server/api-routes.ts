/**
 * The API front doors as routes: GraphQL (`POST /.api/graphql`) and the debug console page and
 * its assets. GraphQL authenticates here, once per request, through the Sourcegraph API rule of
 * auth/policy.ts; the console page and assets hold no data and are open (the page asks for a token).
 */
import type { GraphQLHandler } from '../api/graphql/handler.js';
import { consoleAsset, CONSOLE_ASSET_NAMES } from '../api/pages/console-assets.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_PATH, consolePage } from '../api/pages/console-page.js';
import type { AuthResult } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import type { Route } from '../http/routes.js';

export interface ApiRouteDeps {
  readonly graphql: GraphQLHandler;
  /** forSourcegraphApi(…) of auth/policy.ts: private mode and the token scopes GraphQL takes. */
  readonly authenticate: (headers: Readonly<Record<string, string>>, query: URLSearchParams) => AuthResult;
  readonly repoAccess: (principal: Principal) => (repo: string) => boolean;
}

export const GRAPHQL_PATH = '/.api/graphql';

const JSON_VARY_AUTHORIZATION = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Authorization' });

export function apiRoutes(deps: ApiRouteDeps): Route[] {
  return [
    {
      method: 'POST',
      path: GRAPHQL_PATH,
      async handler(request, reply) {
        const auth = deps.authenticate(request.headers, request.query);
        if (!auth.ok) {
          reply.text(auth.failure.status, auth.failure.message, { Vary: 'Authorization' });
          return;
        }
        const principal = auth.principal;
        const response = await deps.graphql(
          { body: request.body, name: request.query.toString() },
          { principal, canRead: deps.repoAccess(principal), get signal() { return request.signal; } },
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
