/**
 * The executable schema: SDL from schema.graphql.ts with the resolver maps attached to its
 * fields and abstract types. Built once per handler; holds no per-request state.
 */
import { buildSchema, isAbstractType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema, type GraphQLTypeResolver } from 'graphql';
import { createError } from '../../errors.js';
import { accountResolvers } from './account-resolvers.js';
import { commitResolvers } from './commit-resolvers.js';
import { compareResolvers } from './compare-resolvers.js';
import { decodeNumericId, idType } from './ids.js';
import { oauthAppResolvers } from './oauth-app-resolvers.js';
import { repoResolvers } from './repo-resolvers.js';
import type { Resolvers } from './resolver-kit.js';
import { SCHEMA_SDL } from './schema.graphql.js';
import { searchResolvers } from './search-resolvers.js';
import type { GraphQLContext } from './services.js';
import { gitResolvers } from './git-resolvers.js';
import { siteResolvers } from './site-resolvers.js';
import { symbolResolvers } from './symbol-resolvers.js';

const nodeResolvers: Resolvers = {
  Query: {
    node(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      const type = idType(args.id);
      if (type === 'User') {
        const user = ctx.services.accounts.getUser(decodeNumericId('User', args.id));
        return user && { ...user, __typename: 'User' };
      }
      if (type === 'Repository') {
        const id = decodeNumericId('Repository', args.id);
        const repo = ctx.services.repos.list(ctx.principal.canRead).find((r) => r.id === id);
        return repo ? { ...repo, __typename: 'Repository' } : null;
      }
      return null;
    },
  },
  Node: {
    __resolveType: (p: { __typename: string }) => p.__typename,
  },
};

function merge(maps: readonly Resolvers[]): Resolvers {
  const merged: Resolvers = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) merged[type] = { ...merged[type], ...fields };
  }
  return merged;
}

export const RESOLVERS = merge([searchResolvers, repoResolvers, gitResolvers, compareResolvers, accountResolvers, siteResolvers, nodeResolvers, commitResolvers, symbolResolvers, oauthAppResolvers]);

export function createSchema(resolvers: Resolvers = RESOLVERS): GraphQLSchema {
  const schema = buildSchema(SCHEMA_SDL);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (isAbstractType(type)) {
      type.resolveType = fields['__resolveType'] as unknown as GraphQLTypeResolver<unknown, GraphQLContext>;
      continue;
    }
    if (!isObjectType(type)) throw createError('INTERNAL', `resolvers for unknown type ${typeName}`);
    const typeFields = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = typeFields[fieldName];
      if (!field) throw createError('INTERNAL', `resolver for unknown field ${typeName}.${fieldName}`);
      field.resolve = resolve as unknown as GraphQLFieldResolver<unknown, GraphQLContext>;
    }
  }
  return schema;
}
