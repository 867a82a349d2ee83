/**
 * The front end's routed operations other than search (file reads, navigation, history): each goes
 * to one search node that owns the repositories it needs, the first repository's primary first. A
 * node that fails (refused, reset, 5xx, timeout) or holds no index of its share yet is replaced by
 * the next candidate at once; when none answers, the operation fails with REMOTE_FAILED naming why.
 * Permissions are the caller's business: whatever `readable` the caller resolved is sent as is.
 */
import { createError } from '../errors.js';
import { NodeUnavailable, type NodeOperationCall } from './node-client.js';
import { ownersOf, ranking } from './ownership.js';
import type { SearchMemberView } from './fanout-search.js';

export interface OwnerCallDeps {
  readonly members: SearchMemberView;
  readonly replication: number;
  readonly call: NodeOperationCall;
  /** How long one node may take before the next is asked. */
  readonly timeoutMs: number;
}

export interface OwnerCallRequest {
  readonly op: string;
  readonly args: readonly unknown[];
  /** The repositories whose data the operation needs; empty: any node will do. */
  readonly repos: readonly string[];
  readonly readable?: readonly string[];
}

export interface OwnerCallResult {
  readonly value: unknown;
  /** Asked-for repositories the answering node does not own (no node owns them all): left out of its answer. */
  readonly uncovered: readonly string[];
}

export type OwnerCall = (request: OwnerCallRequest, signal?: AbortSignal) => Promise<OwnerCallResult>;

export function createOwnerCall(deps: OwnerCallDeps): OwnerCall {
  return async (request, signal) => {
    const members = deps.members.live();
    const addressOf = new Map(members.map((m) => [m.id, m.address]));
    const ids = members.map((m) => m.id);
    const owned = new Map(ids.map((id) => [id, new Set<string>()]));
    for (const repo of request.repos) for (const owner of ownersOf(repo, ids, deps.replication)) owned.get(owner)!.add(repo);
    const candidates = candidatesFor(request.repos, ids, owned);
    const reasons: string[] = [];
    const deadline = Date.now() + deps.timeoutMs;
    for (const node of candidates) {
      const share = request.repos.filter((repo) => owned.get(node)!.has(repo));
      try {
        const answer = await deps.call(addressOf.get(node)!, {
          op: request.op, args: request.args, repos: share, deadline,
          ...(request.readable !== undefined ? { readable: request.readable } : {}),
        }, Math.max(1, deadline - Date.now()), signal);
        if (answer.missing.length > 0) {
          reasons.push('not indexed there yet');
          continue;
        }
        return { value: answer.value, uncovered: request.repos.filter((repo) => !owned.get(node)!.has(repo)) };
      } catch (error) {
        if (!(error instanceof NodeUnavailable)) throw error;
        if (signal?.aborted) throw createError('ABORTED', 'the request was cancelled');
        reasons.push(error.why);
      }
    }
    const what = request.repos.length === 0 ? 'any repository' : request.repos.join(', ');
    // The reasons, not the nodes' addresses: the message reaches callers (an MCP tool's answer).
    throw createError('REMOTE_FAILED', `no search node holding ${what} answered (${reasons.length === 0 ? 'no live search node' : [...new Set(reasons)].join('; ')}); try again shortly`);
  };
}

/**
 * The nodes to ask in turn: those owning the most of `repos` first, among equals in the order the
 * first repository prefers them (its primary, then its replicas); nodes owning none of them last.
 */
function candidatesFor(repos: readonly string[], ids: readonly string[], owned: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  if (repos.length === 0) return [...ids];
  const order = ranking(repos[0]!, ids);
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...ids]
    .filter((id) => owned.get(id)!.size > 0)
    .sort((a, b) => owned.get(b)!.size - owned.get(a)!.size || rank.get(a)! - rank.get(b)!);
}
