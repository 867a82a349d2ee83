/**
 * `site { ... }` and `updateSiteConfiguration`: build identity for everyone, the configuration
 * document for site admins only.
 */
import { requireSiteAdmin, type Resolvers } from './resolver-kit.js';
import type { GraphQLContext } from './services.js';

export const siteResolvers: Resolvers = {
  Query: {
    site: (_: unknown, __: unknown, ctx: GraphQLContext) => ctx.services.site,
  },
  Site: {
    configuration(_: unknown, __: unknown, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const view = ctx.services.config.get();
      return { id: view.id, effectiveContents: view.contents, validationMessages: view.validationMessages };
    },
  },
  Mutation: {
    updateSiteConfiguration(_: unknown, args: { lastID: number; input: string }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      return ctx.services.config.update(args.lastID, args.input);
    },
  },
};
