/**
 * The front end's HTTP call to one search node: the internal search request over loopback (or the
 * cluster network), bounded by a timeout and the caller's abort signal. A query error the node
 * reports comes back as that QuarryError; anything else (refused, reset, timeout, a 5xx) is a
 * NodeUnavailable, which the fan-out answers by asking a replica.
 */
import { createError, errorMessage, isCallerFacing, type ErrorCode } from '../errors.js';
import { CLUSTER_CALL_PATH, CLUSTER_SEARCH_PATH, CLUSTER_SECRET_HEADER, type ClusterCallAnswer, type ClusterCallError, type ClusterCallRequest, type ClusterSearchAnswer, type ClusterSearchRequest } from './wire.js';

export class NodeUnavailable extends Error {
  constructor(readonly address: string, readonly why: string) {
    super(`search node ${address} did not answer: ${why}`);
  }
}

export type NodeCall = (address: string, body: ClusterSearchRequest, timeoutMs: number, signal?: AbortSignal) => Promise<ClusterSearchAnswer>;
/** Any other routed operation (CLUSTER_CALL_PATH); the same failures, and every caller-facing error passed on. */
export type NodeOperationCall = (address: string, body: ClusterCallRequest, timeoutMs: number, signal?: AbortSignal) => Promise<ClusterCallAnswer>;

/** Errors in what the caller asked, which every node would answer alike: passed on, never retried. */
const QUERY_ERRORS: readonly string[] = ['QUERY_SYNTAX', 'QUERY_UNSUPPORTED', 'PATTERN_UNSUPPORTED', 'PATTERN_INVALID', 'REVISION_NOT_FOUND', 'REPO_NOT_FOUND'];

export function createNodeCall(secret: string): NodeCall {
  return bounded((address, body: ClusterSearchRequest, signal) => send<ClusterSearchAnswer>(address, CLUSTER_SEARCH_PATH, secret, body, signal, (code) => QUERY_ERRORS.includes(code)));
}

export function createNodeOperationCall(secret: string): NodeOperationCall {
  return bounded((address, body: ClusterCallRequest, signal) => send<ClusterCallAnswer>(address, CLUSTER_CALL_PATH, secret, body, signal, (code) => isCallerFacing(createError(code as ErrorCode, ''))));
}

type Send<Body, Answer> = (address: string, body: Body, signal: AbortSignal) => Promise<Answer>;

/** The call under a timeout and the caller's signal. */
function bounded<Body, Answer>(sendTo: Send<Body, Answer>): (address: string, body: Body, timeoutMs: number, signal?: AbortSignal) => Promise<Answer> {
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
      return await Promise.race([timedOut, sendTo(address, body, abort.signal)]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

async function send<Answer>(address: string, path: string, secret: string, body: unknown, signal: AbortSignal, passedOn: (code: string) => boolean): Promise<Answer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${address}${path}`, {
      method: 'POST', signal, body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', [CLUSTER_SECRET_HEADER]: secret },
    });
    text = await response.text();
  } catch (error) {
    throw new NodeUnavailable(address, causeOf(error));
  }
  if (response.status === 200) return JSON.parse(text) as Answer;
  if (response.status === 400) {
    const refused = JSON.parse(text) as ClusterCallError;
    if (passedOn(refused.code)) throw createError(refused.code as ErrorCode, refused.message, { ...refused.details });
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
