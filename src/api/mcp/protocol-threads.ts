/**
 * The main thread's side of the protocol threads: hands each MCP request to the least busy
 * thread, runs the tool calls the thread asks for, and writes the answer (whole or streamed) to
 * the HTTP reply. A thread that dies fails its requests with 500 and is replaced.
 */
import { Worker } from 'node:worker_threads';
import type { HttpRequest } from '../../http/request.js';
import type { Reply, StreamWriter } from '../../http/respond.js';
import type { FromProtocolThread, ProtocolThreadData, ToProtocolThread } from './protocol-messages.js';
import { internalErrorAnswer } from './run-tool.js';
import type { Endpoint, ProgressReporter, ToolAnswer } from './tool.js';

/** Runs a tool for this request, on the main thread where the services live; `progress` when the client asked for it. */
export type RunCall = (name: string, args: unknown, progress?: ProgressReporter) => Promise<ToolAnswer>;

interface InFlight {
  readonly reply: Reply;
  readonly extraHeaders: Readonly<Record<string, string>>;
  readonly runCall: RunCall;
  readonly thread: ProtocolThread;
  readonly done: () => void;
  writer: StreamWriter | null;
}

interface ProtocolThread {
  worker: Worker;
  inFlight: number;
}

/** The transport's headers; the thread needs no others. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

const INTERNAL_ERROR = JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });

export class ProtocolThreads {
  private readonly threads: ProtocolThread[] = [];
  private readonly requests = new Map<number, InFlight>();
  private nextId = 0;
  private closing = false;

  constructor(private readonly data: ProtocolThreadData, count: number, private readonly log: (line: string) => void) {
    for (let i = 0; i < count; i++) this.threads.push(this.spawn());
  }

  /** `disabledTools`: the site configuration's, as this request found it. */
  handle(endpoint: Endpoint, request: HttpRequest, reply: Reply, extraHeaders: Readonly<Record<string, string>>, disabledTools: readonly string[], runCall: RunCall): Promise<void> {
    const thread = this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    const id = this.nextId++;
    const headers = TRANSPORT_HEADERS.flatMap((name) => (request.headers[name] === undefined ? [] : [[name, request.headers[name]!] as const]));
    return new Promise((resolve) => {
      const onAbort = (): void => this.send(thread, { type: 'abort', id });
      const done = (): void => {
        request.signal.removeEventListener('abort', onAbort);
        thread.inFlight--;
        this.requests.delete(id);
        resolve();
      };
      thread.inFlight++;
      this.requests.set(id, { reply, extraHeaders, runCall, thread, done, writer: null });
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.send(thread, { type: 'request', id, endpoint, method: request.method, path: request.path, headers, body: request.body, disabledTools });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  private send(thread: ProtocolThread, message: ToProtocolThread): void {
    thread.worker.postMessage(message);
  }

  private spawn(): ProtocolThread {
    const thread: ProtocolThread = { worker: new Worker(new URL('./protocol-thread.js', import.meta.url), { workerData: this.data }), inFlight: 0 };
    thread.worker.on('message', (message: FromProtocolThread) => this.receive(thread, message));
    thread.worker.on('error', (err) => this.log(`mcp: protocol thread failed: ${err.message}`));
    thread.worker.on('exit', (code) => {
      if (this.closing) return;
      this.log(`mcp: protocol thread exited with ${code}; starting another`);
      for (const request of [...this.requests.values()].filter((r) => r.thread === thread)) this.fail(request);
      this.threads.splice(this.threads.indexOf(thread), 1, this.spawn());
    });
    return thread;
  }

  private receive(thread: ProtocolThread, message: FromProtocolThread): void {
    const request = this.requests.get(message.id);
    if (request === undefined) return;
    switch (message.type) {
      case 'call':
        void request.runCall(message.name, message.args, message.progress ? (progress, text) => this.send(thread, { type: 'progress', id: message.id, call: message.call, progress, message: text }) : undefined)
          .catch((err: unknown): ToolAnswer => {
            this.log(`mcp: ${message.name} failed: ${err instanceof Error ? err.message : String(err)}`);
            return internalErrorAnswer(message.name);
          })
          .then((answer) => this.send(thread, {
            type: 'answer', id: message.id, call: message.call, text: answer.text, isError: answer.isError === true,
            ...(answer.resources === undefined ? {} : { resources: answer.resources }),
          }));
        return;
      case 'response':
        request.reply.send(message.status, message.body, { ...request.extraHeaders, ...message.headers });
        return request.done();
      case 'stream-head':
        request.writer = request.reply.stream(message.status, { ...request.extraHeaders, ...message.headers });
        return;
      case 'stream-chunk':
        void request.writer?.write(message.chunk);
        return;
      case 'stream-end':
        request.writer?.end();
        return request.done();
      case 'failed':
        this.log(`mcp: request failed in its protocol thread: ${message.message}`);
        return this.fail(request);
    }
  }

  private fail(request: InFlight): void {
    if (request.writer !== null) request.writer.end();
    else request.reply.send(500, INTERNAL_ERROR, { 'Content-Type': 'application/json' });
    request.done();
  }
}
