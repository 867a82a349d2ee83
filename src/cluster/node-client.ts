/**
 * The front end's HTTP call to one search node: the internal search request over loopback (or the
 * cluster network), bounded by a timeout and the caller's abort signal. A query error the node
 * reports comes back as that QuarryError; anything else (refused, reset, timeout, a 5xx) is a
 * NodeUnavailable, which the fan-out answers by asking a replica.
 */
import { createError, errorMessage, type ErrorCode } from '../errors.js';
import { CLUSTER_SEARCH_PATH, CLUSTER_SECRET_HEADER, type ClusterSearchAnswer, type ClusterSearchError, type ClusterSearchRequest } from './wire.js';

export class NodeUnavailable extends Error {
  constructor(readonly address: string, readonly why: string) {
    super(`search node ${address} did not answer: ${why}`);
  }
}

export type NodeCall = (address: string, body: ClusterSearchRequest, timeoutMs: number, signal?: AbortSignal) => Promise<ClusterSearchAnswer>;

/** Errors in what the caller asked, which every node would answer alike: passed on, never retried. */
const QUERY_ERRORS: readonly string[] = ['QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_UNSUPPORTED', 'PATTERN_INVALID', 'REVISION_NOT_FOUND', 'REPO_NOT_FOUND'];

export function createNodeCall(secret: string): NodeCall {
  return async (address, body, timeoutMs, signal) => {
    // A plain timer raced against the call (not a composed AbortSignal, which undici can lose; see deepsearch/attempt-deadline.ts).
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new NodeUnavailable(address, `no answer within ${Math.round(timeoutMs)} ms`));
      }, Math.max(1, timeoutMs));
    });
    try {
      return await Promise.race([timedOut, send(address, secret, body, abort.signal)]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

async function send(address: string, secret: string, body: ClusterSearchRequest, signal: AbortSignal): Promise<ClusterSearchAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${address}${CLUSTER_SEARCH_PATH}`, {
      method: 'POST', signal, body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', [CLUSTER_SECRET_HEADER]: secret },
    });
    text = await response.text();
  } catch (error) {
    throw new NodeUnavailable(address, causeOf(error));
  }
  if (response.status === 200) return JSON.parse(text) as ClusterSearchAnswer;
  if (response.status === 400) {
    const refused = JSON.parse(text) as ClusterSearchError;
    if (QUERY_ERRORS.includes(refused.code)) throw createError(refused.code as ErrorCode, refused.message);
  }
  // The node's public message (never a path or git's words: publicMessage on its side) helps whoever reads the notice.
  const said = /"message":"([^"]{1,200})"/.exec(text)?.[1];
  throw new NodeUnavailable(address, `HTTP ${response.status}${said === undefined ? '' : `: ${said}`}`);
}

/** fetch's own message is `fetch failed`; the reason (ECONNREFUSED, ECONNRESET) is its cause's. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? errorMessage(error);
}
