/**
 * `POST /.api/graphql` as a route: authenticates once per request through the Sourcegraph API rule
 * of auth/policy.ts, then runs the handler as that principal with the repositories it may read.
 */
import type { AuthResult } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import type { Route } from '../../http/routes.js';
import type { GraphQLHandler } from './handler.js';

export interface GraphQLRouteDeps {
  readonly graphql: GraphQLHandler;
  /** forSourcegraphApi(…) of auth/policy.ts: private mode and the token scopes GraphQL takes. */
  readonly authenticate: (headers: Readonly<Record<string, string>>, query: URLSearchParams) => AuthResult;
  readonly repoAccess: (principal: Principal) => (repo: string) => boolean;
}

export const GRAPHQL_PATH = '/.api/graphql';

const JSON_VARY_AUTHORIZATION = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Authorization' });

export function graphqlRoute(deps: GraphQLRouteDeps): Route {
  return {
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
  };
}
