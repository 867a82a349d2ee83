/**
 * The front end's search service: the same SearchService the doors use on one machine, answered by
 * the search nodes. The caller's readable repositories are split by their first live owner
 * (ownership.ts) and each node asked for its share over HTTP, all at once, under the caller's
 * deadline. Repositories whose node fails (refused, reset, 5xx) or has not indexed them yet go to
 * their next owner at once; a node silent past its share of the time left is hedged (the next
 * owner asked too, the first answer counts). Those no owner answered for are named in the
 * response's `skipped`. Never scans anything itself.
 */
import { createError } from '../errors.js';
import type { SearchResponse } from '../model/result.js';
import { emptyStats } from '../model/stats.js';
import { parseQuery, queryToString } from '../query/index.js';
import type { SearchRequest, SearchService } from '../search/contracts.js';
import { streamable, type SearchSettings } from '../search/service.js';
import { mergeAnswers } from './merge.js';
import { NodeUnavailable, type NodeCall } from './node-client.js';
import { ownersOf } from './ownership.js';
import type { ClusterSearchAnswer } from './wire.js';

export interface SearchMemberView {
  /** The live search members: id and the address to call. */
  live(): readonly { readonly id: string; readonly address: string }[];
}

export interface FanoutDeps {
  /** Every repository's name (the shared store's list). */
  readonly repos: () => readonly string[];
  readonly members: SearchMemberView;
  readonly replication: number;
  readonly call: NodeCall;
  readonly settings: () => SearchSettings;
}

/** A node may take this long past the deadline to send what it has (its partial answer beats none). */
const ANSWER_GRACE_MS = 1_000;

export function createFanoutSearch(deps: FanoutDeps): SearchService {
  return { search: (request) => fanOut(deps, request) };
}

async function fanOut(deps: FanoutDeps, asked: SearchRequest): Promise<SearchResponse> {
  const started = performance.now();
  const stats = emptyStats();
  const query = parseQuery(asked.query, { defaultPatternType: asked.patternType ?? 'keyword' });
  const request = streamable(query, asked);
  stats.parseMs = performance.now() - started;
  const first = query.basics[0]!.filters;
  const settings = deps.settings();
  const limit = Math.min(first.count === 'all' ? Infinity : first.count ?? request.defaultLimit ?? settings.maxResults, settings.maxCount);
  const deadline = Math.min(request.deadline ?? Infinity, Date.now() + Math.min(first.timeoutMs ?? settings.defaultTimeoutMs, settings.maxTimeoutMs));
  const canRead = request.canRead;
  const readable = canRead ? deps.repos().filter((repo) => canRead(repo)) : [...deps.repos()];
  const members = deps.members.live();
  const addressOf = new Map(members.map((m) => [m.id, m.address]));
  const ids = members.map((m) => m.id);

  /** Per repository, the owners not yet asked, in its order of preference. */
  const untried = new Map(readable.map((repo) => [repo, ids.length === 0 ? [] : ownersOf(repo, ids, deps.replication)]));
  /** Per repository, the calls asking for it that have not settled. */
  const outstanding = new Map(readable.map((repo) => [repo, 0]));
  const answered = new Set<string>();
  /** Per repository, why its last owner asked gave no answer. */
  const failure = new Map<string, string>();
  for (const repo of readable) if (untried.get(repo)!.length === 0) failure.set(repo, 'no live search node');
  const answers: SearchResponse[] = [];
  // Ends the calls still running once the search is answered (a slow primary beaten by its replica).
  const done = new AbortController();
  const onAbort = (): void => done.abort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  const calls = new Set<Promise<void>>();
  let fatal: unknown = null;

  const ask = async (node: string, repos: readonly string[]): Promise<void> => {
    let answer: ClusterSearchAnswer;
    try {
      answer = await deps.call(addressOf.get(node)!, {
        query: request.query, repos, deadline,
        ...(request.patternType !== undefined ? { patternType: request.patternType } : {}),
        ...(request.defaultLimit !== undefined ? { defaultLimit: request.defaultLimit } : {}),
        ...(request.matcher !== undefined ? { matcher: request.matcher } : {}),
      }, Math.max(1, deadline - Date.now()) + ANSWER_GRACE_MS, done.signal);
    } catch (error) {
      if (error instanceof NodeUnavailable) for (const repo of repos) if (!answered.has(repo)) failure.set(repo, error.why);
      else fatal ??= error;
      return;
    } finally {
      for (const repo of repos) outstanding.set(repo, outstanding.get(repo)! - 1);
    }
    // The first answer for a repository counts; a later one for it (a hedge's loser) adds nothing.
    const missing = new Set(answer.missing);
    const fresh = new Set(repos.filter((repo) => !missing.has(repo) && !answered.has(repo)));
    for (const repo of fresh) {
      answered.add(repo);
      failure.delete(repo);
    }
    for (const repo of missing) if (!answered.has(repo)) failure.set(repo, 'not indexed on its owners yet');
    const matches = answer.response.matches.filter((m) => fresh.has(m.repository));
    answers.push({ ...answer.response, matches });
    if (matches.length > 0) request.onMatches?.(matches);
  };
  /** Asks each repository's next owner, one call per node. */
  const askNext = (repos: readonly string[]): void => {
    const byNode = new Map<string, string[]>();
    for (const repo of repos) {
      const node = untried.get(repo)!.shift();
      if (node === undefined) continue;
      outstanding.set(repo, outstanding.get(repo)! + 1);
      byNode.set(node, [...(byNode.get(node) ?? []), repo]);
    }
    for (const [node, group] of byNode) {
      const call: Promise<void> = ask(node, group).finally(() => calls.delete(call));
      calls.add(call);
    }
  };
  const open = (repo: string): boolean => !answered.has(repo) && untried.get(repo)!.length > 0;

  // A node that has not answered by its share of the time left is hedged: the next owner is asked
  // too, and whichever answers first counts. A node that fails (refused, reset, 5xx) is replaced at once.
  const hedgeAfter = (): number => Math.max(0, deadline - Date.now()) / Math.max(1, deps.replication);
  let hedgeAt = Date.now() + hedgeAfter();
  askNext(readable);
  try {
    while (calls.size > 0 && fatal === null) {
      let timer: NodeJS.Timeout | undefined;
      const hedge = new Promise<void>((resolve) => { timer = setTimeout(resolve, Math.max(0, hedgeAt - Date.now())); });
      await Promise.race([...calls, hedge]);
      clearTimeout(timer);
      if (request.signal?.aborted) throw createError('ABORTED', 'the search was cancelled');
      askNext(readable.filter((repo) => open(repo) && outstanding.get(repo) === 0));
      if (Date.now() >= hedgeAt) {
        askNext(readable.filter((repo) => open(repo) && outstanding.get(repo)! > 0));
        hedgeAt = Date.now() + hedgeAfter();
      }
      if (readable.every((repo) => answered.has(repo) || outstanding.get(repo) === 0)) break;
    }
    if (fatal !== null) throw fatal;
  } finally {
    done.abort();
    request.signal?.removeEventListener('abort', onAbort);
  }
  for (const repo of readable) if (!answered.has(repo) && !failure.has(repo)) failure.set(repo, 'no answer by the deadline');

  const unanswered = new Map<string, string[]>();
  for (const [repo, why] of failure) unanswered.set(why, [...(unanswered.get(why) ?? []), repo]);
  const mergeStarted = performance.now();
  const response = mergeAnswers(answers, limit, queryToString(query), unanswered, stats);
  stats.mergeMs = performance.now() - mergeStarted;
  stats.totalMs = performance.now() - started;
  return response;
}
