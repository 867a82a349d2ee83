/**
 * `POST /.api/graphql` as a route: serves the request's authentication as auth/authorize.ts allows,
 * then runs the handler as that principal, who carries the repositories it may read.
 */
import { authorize, type SiteAccess } from '../../auth/authorize.js';
import type { Authentication } from '../../auth/principal.js';
import { onCallersMainThread } from '../../http/main-thread.js';
import type { Route } from '../../http/routes.js';
import type { GraphQLHandler } from './handler.js';

export interface GraphQLRouteDeps {
  readonly graphql: GraphQLHandler;
  /** Site setting `auth.public`, read per request. */
  readonly site: () => SiteAccess;
}

export const GRAPHQL_PATH = '/.api/graphql';

const JSON_VARY_AUTHORIZATION = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Authorization' });

export function graphqlRoute(deps: GraphQLRouteDeps): Route<Authentication> {
  return {
    method: 'POST',
    path: GRAPHQL_PATH,
    async handler(request, reply) {
      const decision = authorize(request.auth, 'graphql', deps.site);
      if (!decision.ok) return reply.send(decision.answer.status, decision.answer.body, decision.answer.headers);
      const { principal } = decision;
      // Up to its first await: the body's JSON, the document's size, parse, cost and validation; the caller's main-thread time.
      const response = await onCallersMainThread(request, () => deps.graphql(
        { body: request.body, name: request.query.toString() },
        { principal, get signal() { return request.signal; } },
      ));
      // 503: the writes could not be committed (the database is away); a retry may succeed.
      reply.send(response.status, response.body, response.status === 503 ? { ...JSON_VARY_AUTHORIZATION, 'Retry-After': '1' } : JSON_VARY_AUTHORIZATION);
    },
  };
}
