/**
 * GitCommit, GitTree and GitBlob: commits, directories and file contents read through the
 * RepoBrowser service. Parents carry an already visible repository, so no check is repeated.
 */
import { basename } from 'node:path/posix';
import { repoUrl, type BlobParent, type CommitParent, type Resolvers, type TreeParent } from './resolver-kit.js';
import type { CommitInfo, GraphQLContext } from './services.js';

// Git's own heuristic: a NUL byte in the first 8000 bytes means binary.
const BINARY_SNIFF_BYTES = 8000;

const commitCache = new WeakMap<CommitParent, Promise<CommitInfo>>();

function commitInfo(p: CommitParent, ctx: GraphQLContext): Promise<CommitInfo> {
  let info = commitCache.get(p);
  if (!info) {
    info = ctx.services.repos.readCommit(p.repo.name, p.oid);
    commitCache.set(p, info);
  }
  return info;
}

function blobBytes(p: BlobParent, ctx: GraphQLContext): Promise<Buffer | null> {
  p.bytes ??= ctx.services.repos.readBlob(p.repo.name, p.oid, p.path);
  return p.bytes;
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

function entryUrl(p: CommitParent, path: string, isDirectory: boolean): string {
  return `${repoUrl(p.repo.name)}@${p.oid}/-/${isDirectory ? 'tree' : 'blob'}/${path}`;
}

export const gitResolvers: Resolvers = {
  GitCommit: {
    repository: (p: CommitParent) => p.repo,
    abbreviatedOID: (p: CommitParent) => p.oid.slice(0, 7),
    author: async (p: CommitParent, _: unknown, ctx: GraphQLContext) => {
      const c = await commitInfo(p, ctx);
      return { date: c.authorDate, person: { name: c.authorName, email: c.authorEmail, displayName: c.authorName } };
    },
    message: async (p: CommitParent, _: unknown, ctx: GraphQLContext) => (await commitInfo(p, ctx)).message,
    subject: async (p: CommitParent, _: unknown, ctx: GraphQLContext) => (await commitInfo(p, ctx)).message.split('\n', 1)[0],
    body: async (p: CommitParent, _: unknown, ctx: GraphQLContext) => {
      const body = (await commitInfo(p, ctx)).message.split('\n').slice(1).join('\n').trim();
      return body === '' ? null : body;
    },
    url: (p: CommitParent) => `${repoUrl(p.repo.name)}/-/commit/${p.oid}`,
    async blob(p: CommitParent, args: { path: string }, ctx: GraphQLContext): Promise<BlobParent | null> {
      const blob: BlobParent = { repo: p.repo, oid: p.oid, path: args.path };
      return (await blobBytes(blob, ctx)) === null ? null : blob;
    },
    async tree(p: CommitParent, args: { path: string }, ctx: GraphQLContext): Promise<TreeParent | null> {
      const path = args.path.replace(/^\/+|\/+$/g, '');
      const entries = await ctx.services.repos.listTree(p.repo.name, p.oid, path, false);
      return entries === null ? null : { repo: p.repo, oid: p.oid, path };
    },
  },
  GitTree: {
    name: (p: TreeParent) => basename(p.path),
    isRoot: (p: TreeParent) => p.path === '',
    isDirectory: () => true,
    url: (p: TreeParent) => entryUrl(p, p.path, true),
    commit: (p: TreeParent): CommitParent => ({ repo: p.repo, oid: p.oid }),
    repository: (p: TreeParent) => p.repo,
    async entries(p: TreeParent, args: { first?: number | null; recursive: boolean }, ctx: GraphQLContext) {
      const items = (await ctx.services.repos.listTree(p.repo.name, p.oid, p.path, args.recursive)) ?? [];
      const shown = args.first == null ? items : items.slice(0, Math.max(args.first, 0));
      return shown.map((e) => ({ path: e.path, name: basename(e.path), isDirectory: e.isDirectory, url: entryUrl(p, e.path, e.isDirectory) }));
    },
  },
  GitBlob: {
    name: (p: BlobParent) => basename(p.path),
    isDirectory: () => false,
    url: (p: BlobParent) => entryUrl(p, p.path, false),
    content: async (p: BlobParent, _: unknown, ctx: GraphQLContext) => {
      const bytes = await blobBytes(p, ctx);
      return bytes === null || isBinary(bytes) ? '' : bytes.toString('utf8');
    },
    byteSize: async (p: BlobParent, _: unknown, ctx: GraphQLContext) => (await blobBytes(p, ctx))?.length ?? 0,
    binary: async (p: BlobParent, _: unknown, ctx: GraphQLContext) => {
      const bytes = await blobBytes(p, ctx);
      return bytes !== null && isBinary(bytes);
    },
    commit: (p: BlobParent): CommitParent => ({ repo: p.repo, oid: p.oid }),
    repository: (p: BlobParent) => p.repo,
  },
};
