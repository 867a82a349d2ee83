/**
 * The front end's search service: the same SearchService the doors use on one machine, answered by
 * the search nodes. The caller's readable repositories are split by their first live owner
 * (ownership.ts) and each node asked for its share over HTTP, all at once, under the caller's
 * deadline. A node that refuses, fails or does not answer within its share of the time left, and
 * repositories a node has not indexed yet, go to the next owner; those no owner answered for are
 * named in the response's `skipped`. Never scans anything itself.
 */
import { createError } from '../errors.js';
import type { SearchResponse } from '../model/result.js';
import { emptyStats } from '../model/stats.js';
import { parseQuery, queryToString } from '../query/index.js';
import type { SearchRequest, SearchService } from '../search/contracts.js';
import type { SearchSettings } from '../search/service.js';
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

/** Of an attempt's time, what the node keeps back to send its answer before the front end stops waiting. */
const ANSWER_MARGIN = 0.1;
const MIN_ANSWER_MARGIN_MS = 50;

export function createFanoutSearch(deps: FanoutDeps): SearchService {
  return { search: (request) => fanOut(deps, request) };
}

async function fanOut(deps: FanoutDeps, request: SearchRequest): Promise<SearchResponse> {
  const started = performance.now();
  const stats = emptyStats();
  const query = parseQuery(request.query, { defaultPatternType: request.patternType ?? 'keyword' });
  stats.parseMs = performance.now() - started;
  const first = query.basics[0]!.filters;
  const settings = deps.settings();
  const limit = Math.min(first.count === 'all' ? Infinity : first.count ?? request.defaultLimit ?? settings.maxResults, settings.maxCount);
  const deadline = Date.now() + Math.min(first.timeoutMs ?? settings.defaultTimeoutMs, settings.maxTimeoutMs);
  const canRead = request.canRead;
  const readable = canRead ? deps.repos().filter((repo) => canRead(repo)) : [...deps.repos()];
  const members = deps.members.live();
  const addressOf = new Map(members.map((m) => [m.id, m.address]));
  const ids = members.map((m) => m.id);

  /** Per repository, the owners not yet asked, in its order of preference. */
  const untried = new Map(readable.map((repo) => [repo, ids.length === 0 ? [] : ownersOf(repo, ids, deps.replication)]));
  /** Per repository, why its last owner asked gave no answer. */
  const lastFailure = new Map<string, string>();
  const answers: SearchResponse[] = [];
  let pending = readable.filter((repo) => untried.get(repo)!.length > 0);
  for (const repo of readable) if (untried.get(repo)!.length === 0) lastFailure.set(repo, 'no live search node');

  while (pending.length > 0) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const byNode = new Map<string, string[]>();
    let attemptsLeft = 1;
    for (const repo of pending) {
      const owners = untried.get(repo)!;
      attemptsLeft = Math.max(attemptsLeft, owners.length);
      const node = owners.shift()!;
      byNode.set(node, [...(byNode.get(node) ?? []), repo]);
    }
    // The time left shared among the attempts that may still be needed: the last gets all of it.
    const attemptMs = left / attemptsLeft;
    const nodeDeadline = Date.now() + attemptMs - Math.max(MIN_ANSWER_MARGIN_MS, attemptMs * ANSWER_MARGIN);
    const retry: string[] = [];
    await Promise.all([...byNode].map(async ([node, repos]) => {
      const address = addressOf.get(node)!;
      let answer: ClusterSearchAnswer;
      try {
        answer = await deps.call(address, {
          query: request.query, repos, deadline: Math.max(Date.now() + 1, nodeDeadline),
          ...(request.patternType !== undefined ? { patternType: request.patternType } : {}),
          ...(request.defaultLimit !== undefined ? { defaultLimit: request.defaultLimit } : {}),
          ...(request.matcher !== undefined ? { matcher: request.matcher } : {}),
        }, attemptMs, request.signal);
      } catch (error) {
        if (request.signal?.aborted) throw createError('ABORTED', 'the search was cancelled');
        if (!(error instanceof NodeUnavailable)) throw error;
        for (const repo of repos) lastFailure.set(repo, error.why);
        retry.push(...repos);
        return;
      }
      answers.push(answer.response);
      if (answer.response.matches.length > 0) request.onMatches?.(answer.response.matches);
      const missing = new Set(answer.missing);
      for (const repo of repos) {
        if (missing.has(repo)) lastFailure.set(repo, 'not indexed on its owners yet');
        else lastFailure.delete(repo);
      }
      retry.push(...answer.missing);
    }));
    pending = retry.filter((repo) => untried.get(repo)!.length > 0);
  }
  for (const repo of pending) lastFailure.set(repo, 'the search deadline passed');

  const unanswered = new Map<string, string[]>();
  for (const [repo, why] of lastFailure) unanswered.set(why, [...(unanswered.get(why) ?? []), repo]);
  const mergeStarted = performance.now();
  const response = mergeAnswers(answers, limit, queryToString(query), unanswered, stats);
  stats.mergeMs = performance.now() - mergeStarted;
  stats.totalMs = performance.now() - started;
  return response;
}
