/**
 * OAuth applications over GraphQL, for site admins only: list, create (the client secret in the
 * answer once) and delete. The OAuthApplicationService acts; the admin check is made here.
 */
import { createError } from '../../errors.js';
import type { OAuthApplicationInfo, OAuthApplicationService } from '../../model/oauth-apps.js';
import { requireSiteAdmin, type Resolvers } from './resolver-kit.js';
import type { GraphQLContext } from './services.js';

const EMPTY = { alwaysNil: null };

function appsOf(ctx: GraphQLContext): OAuthApplicationService {
  requireSiteAdmin(ctx);
  if (ctx.services.oauthApps === undefined) throw createError('INVALID_ARGUMENT', 'OAuth applications are not served by this API');
  return ctx.services.oauthApps;
}

export const oauthAppResolvers: Resolvers = {
  Query: {
    oauthApplications: (_: unknown, __: unknown, ctx: GraphQLContext) => appsOf(ctx).list(),
  },
  OAuthApplication: {
    clientID: (p: OAuthApplicationInfo) => p.clientId,
    redirectURIs: (p: OAuthApplicationInfo) => p.redirectUris,
  },
  Mutation: {
    createOAuthApplication(_: unknown, args: { name: string; redirectURIs: string[]; scopes: string[]; confidential: boolean }, ctx: GraphQLContext) {
      const created = appsOf(ctx).create({ name: args.name, redirectUris: args.redirectURIs, scopes: args.scopes, confidential: args.confidential });
      return { application: created.application, clientSecret: created.secret };
    },
    deleteOAuthApplication(_: unknown, args: { clientID: string }, ctx: GraphQLContext) {
      appsOf(ctx).delete(args.clientID);
      return EMPTY;
    },
  },
};
