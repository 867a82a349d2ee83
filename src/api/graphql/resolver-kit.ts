/**
 * Shared pieces of the resolvers: the resolver map type, the parent shapes passed between types,
 * connections with cursors, visibility and admin checks. No field logic lives here.
 */
import type { FileMatch } from '../../model/result.js';
import { AccessDenied, MUST_BE_SITE_ADMIN } from './errors.js';
import { decodeId, encodeId } from './ids.js';
import type { GraphQLContext, RepoInfo, RefInfo } from './services.js';

// Parents differ per type; `never` lets each resolver declare its own parent and argument types.
export type FieldResolver = (parent: never, args: never, ctx: GraphQLContext) => unknown;
export type Resolvers = Record<string, Record<string, FieldResolver>>;

export interface CommitParent { readonly repo: RepoInfo; readonly oid: string }
export interface BlobParent extends CommitParent { readonly path: string; bytes?: Promise<Buffer | null> }
export interface TreeParent extends CommitParent { readonly path: string }
export interface RefParent { readonly repo: RepoInfo; readonly ref: RefInfo }
export interface FileMatchParent { readonly match: FileMatch; readonly repo: RepoInfo }

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 10_000;

export interface Connection<T> {
  readonly nodes: readonly T[];
  readonly totalCount: number;
  readonly pageInfo: { readonly endCursor: string | null; readonly hasNextPage: boolean };
}

/**
 * One page of `items` (already filtered and sorted by `keyOf`, which must order like the list)
 * after the cursor `after`; cursors are opaque ids over the key. `first` defaults to 50.
 */
export function page<T>(items: readonly T[], first: number | null | undefined, after: string | null | undefined, keyOf: (item: T) => string): Connection<T> {
  const size = Math.min(Math.max(first ?? DEFAULT_PAGE_SIZE, 0), MAX_PAGE_SIZE);
  const afterKey = after == null ? null : decodeId('Cursor', after);
  const start = afterKey === null ? 0 : items.findIndex((item) => keyOf(item) > afterKey);
  const rest = start === -1 ? [] : items.slice(start);
  const nodes = rest.slice(0, size);
  const last = nodes.at(-1);
  return {
    nodes,
    totalCount: items.length,
    pageInfo: { endCursor: last === undefined ? null : encodeId('Cursor', keyOf(last)), hasNextPage: rest.length > nodes.length },
  };
}

/** A repository the caller may read, or null: unreadable and missing look the same. */
export function visibleRepo(ctx: GraphQLContext, name: string): RepoInfo | null {
  return ctx.services.repos.get(name, ctx.principal.canRead);
}

export function requireSiteAdmin(ctx: GraphQLContext): void {
  if (!ctx.principal.siteAdmin) throw new AccessDenied(MUST_BE_SITE_ADMIN);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function repoUrl(name: string): string {
  return `/${name}`;
}
