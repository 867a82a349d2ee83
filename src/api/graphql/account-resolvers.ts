/**
 * Users, access tokens and roles: queries and the site-admin mutations, with Sourcegraph's
 * refusal strings. The AccountService acts; every authorization decision is made here.
 */
import { createError } from '../../errors.js';
import { AccessDenied, MUST_BE_USER_OR_ADMIN } from './errors.js';
import { decodeId, decodeNumericId, encodeId } from './ids.js';
import { page, requireSiteAdmin, type Resolvers } from './resolver-kit.js';
import type { AccessTokenInfo, GraphQLContext, RoleInfo, UserInfo } from './services.js';

const KNOWN_SCOPES = new Set(['user:all', 'site-admin:sudo', 'mcp']);
const SUDO_SCOPE = 'site-admin:sudo';
const EMPTY = { alwaysNil: null };

function requireSelfOrAdmin(ctx: GraphQLContext, userId: number): void {
  if (!ctx.principal.siteAdmin && ctx.principal.userId !== userId) throw new AccessDenied(MUST_BE_USER_OR_ADMIN);
}

function userById(ctx: GraphQLContext, id: string): UserInfo {
  const user = ctx.services.accounts.getUser(decodeNumericId('User', id));
  if (!user) throw createError('USER_NOT_FOUND', `user not found: ${id}`, { id });
  return user;
}

function roleById(ctx: GraphQLContext, id: string): RoleInfo {
  const name = decodeId('Role', id);
  const role = ctx.services.accounts.listRoles().find((r) => r.name === name);
  if (!role) throw createError('ROLE_NOT_FOUND', `role not found: ${name}`, { role: name });
  return role;
}

function requireCustomRole(role: RoleInfo): void {
  if (role.system) throw createError('INVALID_ARGUMENT', `system role ${role.name} cannot be changed`, { role: role.name });
}

// Users are listed by id; the cursor key is zero-padded so string order is numeric order.
const userKey = (u: UserInfo): string => String(u.id).padStart(15, '0');

export const accountResolvers: Resolvers = {
  Query: {
    currentUser: (_: unknown, __: unknown, ctx: GraphQLContext) =>
      (ctx.principal.userId === null ? null : ctx.services.accounts.getUser(ctx.principal.userId)),
    user: (_: unknown, args: { username?: string | null }, ctx: GraphQLContext) =>
      (args.username ? ctx.services.accounts.getUserByUsername(args.username) : null),
    users(_: unknown, args: { first?: number | null; after?: string | null; query?: string | null }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      return page(ctx.services.accounts.listUsers(args.query ?? undefined), args.first, args.after, userKey);
    },
    roles(_: unknown, args: { first?: number | null }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      return page(ctx.services.accounts.listRoles(), args.first, null, (r) => r.name);
    },
  },
  User: {
    id: (p: UserInfo) => encodeId('User', p.id),
    email: (p: UserInfo, _: unknown, ctx: GraphQLContext) => {
      requireSelfOrAdmin(ctx, p.id);
      return p.email ?? '';
    },
    url: (p: UserInfo) => `/users/${p.username}`,
    siteAdmin: (p: UserInfo, _: unknown, ctx: GraphQLContext) => {
      requireSelfOrAdmin(ctx, p.id);
      return p.siteAdmin;
    },
    databaseID: (p: UserInfo) => p.id,
    accessTokens(p: UserInfo, args: { first?: number | null }, ctx: GraphQLContext) {
      requireSelfOrAdmin(ctx, p.id);
      const tokens = [...ctx.services.accounts.listAccessTokens(p.id)].sort((a, b) => a.id - b.id);
      return page(tokens, args.first, null, (t) => String(t.id).padStart(15, '0'));
    },
    roles(p: UserInfo, args: { first?: number | null }, ctx: GraphQLContext) {
      const held = new Set(p.roles);
      return page(ctx.services.accounts.listRoles().filter((r) => held.has(r.name)), args.first, null, (r) => r.name);
    },
    permissions: (p: UserInfo, _: unknown, ctx: GraphQLContext) => {
      requireSelfOrAdmin(ctx, p.id);
      return ctx.services.accounts.permissionsOf(p.id);
    },
  },
  AccessToken: {
    id: (p: AccessTokenInfo) => encodeId('AccessToken', p.id),
  },
  Role: {
    id: (p: RoleInfo) => encodeId('Role', p.name),
  },
  Mutation: {
    createUser(_: unknown, args: { username: string; email?: string | null }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      return { user: ctx.services.accounts.createUser({ username: args.username, email: args.email ?? null }), resetPasswordURL: null };
    },
    deleteUser(_: unknown, args: { user: string }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const user = userById(ctx, args.user);
      if (user.id === ctx.principal.userId) throw createError('INVALID_ARGUMENT', 'unable to delete current user');
      ctx.services.accounts.deleteUser(user.id);
      return EMPTY;
    },
    setUserIsSiteAdmin(_: unknown, args: { userID: string; siteAdmin: boolean }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const user = userById(ctx, args.userID);
      if (user.id === ctx.principal.userId) throw createError('INVALID_ARGUMENT', 'refusing to set current user site admin status');
      ctx.services.accounts.setSiteAdmin(user.id, args.siteAdmin);
      return EMPTY;
    },
    createAccessToken(_: unknown, args: { user: string; scopes: string[]; note: string }, ctx: GraphQLContext) {
      const userId = decodeNumericId('User', args.user);
      requireSelfOrAdmin(ctx, userId);
      if (ctx.principal.userId === null) throw new AccessDenied(MUST_BE_USER_OR_ADMIN);
      const unknown = args.scopes.filter((s) => !KNOWN_SCOPES.has(s));
      if (args.scopes.length === 0 || unknown.length > 0) throw createError('INVALID_ARGUMENT', `invalid access token scopes: ${unknown.join(', ') || '(none)'}`);
      if (args.scopes.includes(SUDO_SCOPE)) requireSiteAdmin(ctx);
      userById(ctx, args.user);
      const created = ctx.services.accounts.createAccessToken({ userId, creatorId: ctx.principal.userId, scopes: args.scopes, note: args.note });
      return { id: encodeId('AccessToken', created.id), token: created.token };
    },
    deleteAccessToken(_: unknown, args: { byID?: string | null; byToken?: string | null }, ctx: GraphQLContext) {
      if ((args.byID == null) === (args.byToken == null)) throw createError('INVALID_ARGUMENT', 'exactly one of byID or byToken must be given');
      const by = args.byID != null ? { id: decodeNumericId('AccessToken', args.byID) } : { token: args.byToken! };
      const token = ctx.services.accounts.findAccessToken(by);
      if (!token) throw createError('TOKEN_NOT_FOUND', 'access token not found');
      requireSelfOrAdmin(ctx, token.userId);
      ctx.services.accounts.deleteAccessToken(token.id);
      return EMPTY;
    },
    createRole(_: unknown, args: { name: string; permissions: string[] }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      return ctx.services.accounts.createRole(args.name, args.permissions);
    },
    deleteRole(_: unknown, args: { role: string }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const role = roleById(ctx, args.role);
      requireCustomRole(role);
      ctx.services.accounts.deleteRole(role.name);
      return EMPTY;
    },
    assignRoleToUser(_: unknown, args: { user: string; role: string }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const role = roleById(ctx, args.role);
      requireCustomRole(role);
      ctx.services.accounts.assignRole(userById(ctx, args.user).id, role.name);
      return EMPTY;
    },
    removeRoleFromUser(_: unknown, args: { user: string; role: string }, ctx: GraphQLContext) {
      requireSiteAdmin(ctx);
      const role = roleById(ctx, args.role);
      requireCustomRole(role);
      ctx.services.accounts.removeRole(userById(ctx, args.user).id, role.name);
      return EMPTY;
    },
  },
};
