/**
 * `repository(name)`, `repositories(...)` and the Repository, GitRef and GitObject types. Every
 * lookup goes through visibleRepo: a repository the caller may not read does not exist.
 */
import { encodeId } from './ids.js';
import { escapeHtml, page, repoUrl, visibleRepo, type CommitParent, type RefParent, type Resolvers } from './resolver-kit.js';
import type { GraphQLContext, RepoIndexStatus, RepoInfo, RefInfo } from './services.js';

interface IndexParent { readonly repo: RepoInfo; readonly status: RepoIndexStatus }
interface RepositoriesArgs { first?: number | null; after?: string | null; query?: string | null; names?: string[] | null }

const PREFIX: Record<RefInfo['kind'], string> = { branch: 'refs/heads/', tag: 'refs/tags/' };

async function refsOfKind(ctx: GraphQLContext, repo: RepoInfo, kind: RefInfo['kind']): Promise<RefParent[]> {
  const refs = await ctx.services.repos.refs(repo.name);
  return refs.filter((r) => r.kind === kind).sort((a, b) => (a.name < b.name ? -1 : 1)).map((ref) => ({ repo, ref }));
}

export const repoResolvers: Resolvers = {
  Query: {
    repository: (_: unknown, args: { name?: string | null }, ctx: GraphQLContext) => (args.name ? visibleRepo(ctx, args.name) : null),
    repositories(_: unknown, args: RepositoriesArgs, ctx: GraphQLContext) {
      const names = args.names ? new Set(args.names) : null;
      const needle = args.query?.toLowerCase() ?? '';
      const repos = ctx.services.repos.list(ctx.principal.canRead).filter((r) => (names === null || names.has(r.name)) && r.name.toLowerCase().includes(needle));
      return page(repos, args.first, args.after, (r) => r.name);
    },
  },
  Repository: {
    id: (p: RepoInfo) => encodeId('Repository', p.id),
    uri: (p: RepoInfo) => p.name,
    url: (p: RepoInfo) => repoUrl(p.name),
    externalURLs: () => [],
    label: (p: RepoInfo) => ({ text: `[${p.name}](${repoUrl(p.name)})`, html: `<p><a href="${escapeHtml(repoUrl(p.name))}" rel="nofollow">${escapeHtml(p.name)}</a></p>` }),
    isFork: (p: RepoInfo) => p.fork,
    isArchived: (p: RepoInfo) => p.archived,
    isPrivate: (p: RepoInfo) => p.private,
    async defaultBranch(p: RepoInfo, _: unknown, ctx: GraphQLContext): Promise<RefParent | null> {
      if (p.defaultBranch === null) return null;
      return (await refsOfKind(ctx, p, 'branch')).find((r) => r.ref.name === p.defaultBranch) ?? null;
    },
    branches: async (p: RepoInfo, args: { first?: number | null }, ctx: GraphQLContext) =>
      page(await refsOfKind(ctx, p, 'branch'), args.first, null, (r) => r.ref.name),
    tags: async (p: RepoInfo, args: { first?: number | null }, ctx: GraphQLContext) =>
      page(await refsOfKind(ctx, p, 'tag'), args.first, null, (r) => r.ref.name),
    async commit(p: RepoInfo, args: { rev: string }, ctx: GraphQLContext): Promise<CommitParent | null> {
      const oid = await ctx.services.repos.resolveRevision(p.name, args.rev);
      return oid === null ? null : { repo: p, oid };
    },
    textSearchIndex(p: RepoInfo, _: unknown, ctx: GraphQLContext) {
      if (!ctx.services.indexStatus) throw new Error('index status is not available on this server');
      const status = ctx.services.indexStatus(p.name);
      return status === null ? null : { repo: p, status };
    },
  },
  RepositoryTextSearchIndex: {
    repository: (p: IndexParent) => p.repo,
    // BigInt goes out as a string, as Sourcegraph sends it.
    status: (p: IndexParent) => (p.status.live === null ? null : { ...p.status.live, contentByteSize: String(p.status.live.contentByteSize) }),
    phases: (p: IndexParent) => p.status.phases.map((phase) => ({ ...phase, name: phase.phase.toUpperCase(), state: phase.state.toUpperCase() })),
  },
  GitRef: {
    name: (p: RefParent) => PREFIX[p.ref.kind] + p.ref.name,
    abbrevName: (p: RefParent) => p.ref.name,
    displayName: (p: RefParent) => p.ref.name,
    prefix: (p: RefParent) => PREFIX[p.ref.kind],
    type: (p: RefParent) => (p.ref.kind === 'branch' ? 'GIT_BRANCH' : 'GIT_TAG'),
    target: (p: RefParent): CommitParent => ({ repo: p.repo, oid: p.ref.oid }),
    repository: (p: RefParent) => p.repo,
    url: (p: RefParent) => `${repoUrl(p.repo.name)}@${p.ref.name}`,
  },
  GitObject: {
    abbreviatedOID: (p: CommitParent) => p.oid.slice(0, 7),
    commit: (p: CommitParent) => p,
  },
};
