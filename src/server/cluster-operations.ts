/**
 * The routed operations of a cluster, both ends: the table a search node runs them from (its own
 * services: mirrors, index, symbol tables, history) and the services a front end's doors use in
 * their place, which send each to the repository's owner (cluster/owner-call.ts). MCP tools that
 * read one repository's files, navigation or history run whole on the owner, so their answers are
 * the single server's; their caller's readable repositories travel with them.
 */
import type { ClusterOperation } from '../api/cluster/call-route.js';
import type { McpServices } from '../api/mcp/services.js';
import { runTool } from '../api/mcp/run-tool.js';
import { IMPLEMENTED } from '../api/mcp/registry.js';
import { ToolError, type ToolAnswer, type ToolContext, type ToolDefinition } from '../api/mcp/tool.js';
import { ANONYMOUS, type Principal } from '../auth/principal.js';
import type { OwnerCall } from '../cluster/owner-call.js';
import { createError, isQuarryError } from '../errors.js';
import type { DiffHistory } from '../history/diff-service.js';
import type { RepoHistory } from '../history/repo-history.js';
import type { RepoBrowser } from '../model/repos.js';
import type { ContributorOptions } from '../history/contributors.js';
import type { AncestorsRequest } from '../history/compare-log.js';

/** MCP tools answered by the owner of the repositories they name. */
export const ROUTED_TOOLS: ReadonlySet<string> = new Set([
  'read_file', 'list_files', 'list_refs', 'go_to_definition', 'find_references', 'commit_search', 'diff_search', 'compare_revisions',
]);

const str = (value: unknown): string => {
  if (typeof value !== 'string') throw createError('INVALID_ARGUMENT', 'expected a string argument');
  return value;
};

/** A search node's table. `files` reads blobs from the index where it holds them (as the stream API's context does). */
export function nodeOperations(deps: {
  readonly repos: RepoBrowser;
  readonly files: RepoBrowser;
  readonly diffs: DiffHistory;
  readonly history: RepoHistory;
  readonly mcp: McpServices;
  readonly log: (line: string) => void;
}): Map<string, ClusterOperation> {
  const { repos, files, diffs, history } = deps;
  const tools = new Map<string, ToolDefinition>(IMPLEMENTED.filter((t) => ROUTED_TOOLS.has(t.name)).map((t) => [t.name, t]));
  return new Map<string, ClusterOperation>([
    ['repos.refs', (a) => repos.refs(str(a[0]))],
    ['repos.resolveRevision', (a) => repos.resolveRevision(str(a[0]), str(a[1]))],
    ['repos.readCommit', (a) => repos.readCommit(str(a[0]), str(a[1]))],
    ['repos.readBlob', async (a) => (await files.readBlob(str(a[0]), str(a[1]), str(a[2])))?.toString('base64') ?? null],
    ['repos.listTree', (a) => repos.listTree(str(a[0]), str(a[1]), str(a[2]), a[3] === true)],
    ['diffs.compare', (a) => diffs.compare(str(a[0]), str(a[1]), str(a[2]))],
    ['diffs.ancestors', (a) => diffs.ancestors(str(a[0]), str(a[1]), a[2] as AncestorsRequest)],
    ['history.contributors', (a, readable) => history.contributors(str(a[0]), a[1] as ContributorOptions, (repo) => readable.has(repo))],
    ['mcp.tool', async (a, readable, signal): Promise<ToolAnswer> => {
      const tool = tools.get(str(a[0]));
      if (tool === undefined) throw createError('INVALID_ARGUMENT', `tool ${String(a[0])} is not routed`);
      const principal: Principal = { ...ANONYMOUS, canRead: (repo) => readable.has(repo) };
      const ctx: ToolContext = { principal, signal, origin: str(a[3]), maxAnswerTokens: Number(a[2]), services: deps.mcp, log: deps.log };
      return runTool(tool, a[1], ctx, deps.log);
    }],
  ]);
}

/** The front end's repository browser: the list from the shared store, git objects from the owner. */
export function remoteRepoBrowser(local: RepoBrowser, call: OwnerCall): RepoBrowser {
  const on = async <T>(op: string, args: readonly unknown[]): Promise<T> => (await call({ op, args, repos: [args[0] as string] })).value as T;
  return {
    list: local.list,
    get: local.get,
    refs: (repo) => on('repos.refs', [repo]),
    resolveRevision: (repo, rev) => on('repos.resolveRevision', [repo, rev]),
    readCommit: (repo, oid) => on('repos.readCommit', [repo, oid]),
    readBlob: async (repo, commit, path) => {
      const base64 = await on<string | null>('repos.readBlob', [repo, commit, path]);
      return base64 === null ? null : Buffer.from(base64, 'base64');
    },
    listTree: (repo, commit, path, recursive) => on('repos.listTree', [repo, commit, path, recursive]),
  };
}

/** Comparisons and ancestors from the owner; diff search goes through the search fan-out or the routed diff_search tool. */
export function remoteDiffs(call: OwnerCall): DiffHistory {
  const on = async <T>(op: string, args: readonly unknown[]): Promise<T> => (await call({ op, args, repos: [args[0] as string] })).value as T;
  return {
    searchDiffs: () => Promise.reject(createError('INVALID_ARGUMENT', 'diff search on a front end runs on the search nodes (diff_search, type:diff)')),
    compare: (repo, base, head) => on('diffs.compare', [repo, base, head]),
    ancestors: (repo, oid, request) => on('diffs.ancestors', [repo, oid, request]),
  };
}

/** Contributors from the owner (the caller's permission checked here first); the rest runs on search nodes. */
export function remoteHistory(call: OwnerCall): RepoHistory {
  const elsewhere = (): Promise<never> => Promise.reject(createError('INVALID_ARGUMENT', 'commit search on a front end runs on the search nodes (commit_search, type:commit)'));
  return {
    searchCommits: elsewhere,
    contributorRepos: elsewhere,
    async contributors(repo, options, canRead) {
      if (!canRead(repo)) throw createError('REPO_NOT_FOUND', `repository not found: ${repo}`, { repo });
      return (await call({ op: 'history.contributors', args: [repo, options], repos: [repo], readable: [repo] })).value as Awaited<ReturnType<RepoHistory['contributors']>>;
    },
    update: () => Promise.reject(createError('INVALID_ARGUMENT', 'a front end indexes nothing')),
  };
}

/**
 * The front end's routed MCP tools: the same definitions, run on the owner of the repositories
 * their arguments name (the caller's readable repositories sent along), so the answer is the one a
 * single server gives. Where no single node owns every named repository, the node owning most
 * answers and a note names the ones it left out.
 */
export function routedTools(call: OwnerCall, allRepos: () => readonly string[]): ToolDefinition[] {
  return IMPLEMENTED.map((tool): ToolDefinition => !ROUTED_TOOLS.has(tool.name) ? tool : {
    ...tool,
    async run(args, ctx) {
      const readable = allRepos().filter((repo) => ctx.principal.canRead(repo));
      const named = namedRepos(args).map((name) => resolveName(name, readable)).filter((r): r is string => r !== null);
      let result: Awaited<ReturnType<OwnerCall>>;
      try {
        result = await call({ op: 'mcp.tool', args: [tool.name, args, ctx.maxAnswerTokens, ctx.origin], repos: named, readable }, ctx.signal);
      } catch (error) {
        // Every owner away is the agent's to hear (and retry), not an internal error.
        if (isQuarryError(error, 'REMOTE_FAILED')) throw new ToolError(`${error.message}.`);
        throw error;
      }
      const { value, uncovered } = result;
      const answer = value as ToolAnswer;
      if (uncovered.length === 0) return answer;
      return { ...answer, text: `${answer.text}\n(not searched: ${uncovered.join(', ')}: no single search node holds every repository asked for; ask for them separately)` };
    },
  });
}

function namedRepos(args: Record<string, unknown>): string[] {
  const names: string[] = [];
  if (typeof args['repo'] === 'string') names.push(args['repo']);
  if (Array.isArray(args['repos'])) for (const r of args['repos']) if (typeof r === 'string') names.push(r);
  return [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
}

/** The readable repository a tool would take the name for: exact, else the one it ends (`gin` for github.com/gin-gonic/gin). */
function resolveName(name: string, readable: readonly string[]): string | null {
  if (readable.includes(name)) return name;
  const tails = readable.filter((r) => r.endsWith(`/${name}`));
  return tails.length === 1 ? tails[0]! : null;
}
