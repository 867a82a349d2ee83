/**
 * The front end's HTTP call to one search node: the internal search request over loopback (or the
 * cluster network), bounded by a timeout and the caller's abort signal. A query error the node
 * reports comes back as that QuarryError; anything else (refused, reset, timeout, a 5xx) is a
 * NodeUnavailable, which the fan-out answers by asking a replica.
 */
import { Agent, request } from 'node:http';
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

/**
 * Kept-alive connections to the search nodes: node:http rather than fetch, which cost 0.5-4 ms
 * more per call at p50 in bench/cluster-transport.bench.ts (interleaved, same node, same answers).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function send<Answer>(address: string, path: string, secret: string, body: unknown, signal: AbortSignal, passedOn: (code: string) => boolean): Promise<Answer> {
  let status: number;
  let text: string;
  try {
    ({ status, text } = await post(`${address}${path}`, JSON.stringify(body), secret, signal));
  } catch (error) {
    throw new NodeUnavailable(address, (error as { code?: string }).code ?? errorMessage(error));
  }
  if (status === 200) return JSON.parse(text) as Answer;
  if (status === 400) {
    const refused = JSON.parse(text) as ClusterCallError;
    if (passedOn(refused.code)) throw createError(refused.code as ErrorCode, refused.message, { ...refused.details });
  }
  // The node's public message (never a path or git's words: publicMessage on its side) helps whoever reads the notice.
  const said = /"message":"([^"]{1,200})"/.exec(text)?.[1];
  throw new NodeUnavailable(address, `HTTP ${status}${said === undefined ? '' : `: ${said}`}`);
}

/** One POST, its status and whole body; rejects with the socket's error (its code: ECONNREFUSED, ECONNRESET) or the abort. */
function post(url: string, body: string, secret: string, signal: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST', agent, signal,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), [CLUSTER_SECRET_HEADER]: secret },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
