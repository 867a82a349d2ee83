/**
 * A protocol thread: speaks MCP through the SDK for requests the main thread hands over, and asks
 * the main thread to run each tool call. Keeping the SDK's per-request work (transport, message
 * validation, JSON) here leaves the main thread to HTTP, authentication and the tools themselves.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nameThisThread } from '../../pool/thread-name.js';
import { bridgeMcpRequest, type ResponseSink } from './bridge.js';
import { createMcpServer, ServerPool } from './mcp-server.js';
import type { FromProtocolThread, ProtocolThreadData, ToProtocolThread } from './protocol-messages.js';
import type { Endpoint, ProgressReporter, ToolAnswer } from './tool.js';

nameThisThread('q-mcp');
const port = parentPort!;
const data = workerData as ProtocolThreadData;
const post = (message: FromProtocolThread, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

const aborts = new Map<number, AbortController>();
const disabledByRequest = new Map<number, ReadonlySet<string>>();
const NONE_DISABLED: ReadonlySet<string> = new Set();
const pendingCalls = new Map<number, (answer: ToolAnswer) => void>();
const progressOfCall = new Map<number, ProgressReporter>();
let nextCall = 0;

const environment = {
  version: data.version,
  disabledTools: new Set(data.disabledTools),
  disabledFor: (requestId: number): ReadonlySet<string> => disabledByRequest.get(requestId) ?? NONE_DISABLED,
  callTool(requestId: number, name: string, args: unknown, signal: AbortSignal, progress?: ProgressReporter): Promise<ToolAnswer> {
    if (signal.aborted) return Promise.resolve({ text: 'The call was cancelled.', isError: true });
    const call = nextCall++;
    if (progress !== undefined) progressOfCall.set(call, progress);
    return new Promise((resolve) => {
      pendingCalls.set(call, resolve);
      post({ type: 'call', id: requestId, call, name, args, progress: progress !== undefined });
    });
  },
};

const pools = new Map<Endpoint, ServerPool>(
  (Object.keys(data.listings) as Endpoint[]).map((endpoint) => [endpoint, new ServerPool(() => createMcpServer(endpoint, data.listings[endpoint], environment))]),
);

function sinkFor(id: number): ResponseSink {
  return {
    whole: (status, headers, body) => post({ type: 'response', id, status, headers, body }, [body.buffer as ArrayBuffer]),
    streamHead: (status, headers) => post({ type: 'stream-head', id, status, headers }),
    streamChunk: (chunk) => post({ type: 'stream-chunk', id, chunk }),
    streamEnd: () => post({ type: 'stream-end', id }),
  };
}

async function serve(message: Extract<ToProtocolThread, { type: 'request' }>): Promise<void> {
  const abort = new AbortController();
  aborts.set(message.id, abort);
  if (message.disabledTools.length > 0) disabledByRequest.set(message.id, new Set(message.disabledTools));
  const pool = pools.get(message.endpoint)!;
  const server = pool.acquire();
  try {
    await bridgeMcpRequest(message, server, message.id, sinkFor(message.id), abort.signal);
    pool.release(server);
  } catch (err) {
    post({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) });
  } finally {
    aborts.delete(message.id);
    disabledByRequest.delete(message.id);
  }
}

port.on('message', (message: ToProtocolThread) => {
  switch (message.type) {
    case 'request':
      void serve(message);
      break;
    case 'answer': {
      const resolve = pendingCalls.get(message.call);
      pendingCalls.delete(message.call);
      progressOfCall.delete(message.call);
      resolve?.({ text: message.text, isError: message.isError, ...(message.resources === undefined ? {} : { resources: message.resources }) });
      break;
    }
    case 'abort':
      aborts.get(message.id)?.abort();
      break;
    case 'progress':
      progressOfCall.get(message.call)?.(message.progress, message.message);
      break;
  }
});
