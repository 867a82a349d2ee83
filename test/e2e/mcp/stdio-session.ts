/**
 * A JSON-RPC conversation with a stdio MCP process (newline-delimited messages on stdin and
 * stdout), as a desktop MCP client holds it: requests wait for the answer with their id.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tail } from './external-tools.js';

export interface JsonRpcAnswer {
  readonly id: number;
  readonly result?: any;
  readonly error?: { readonly code: number; readonly message: string };
}

export interface StdioSession {
  request(method: string, params?: Record<string, unknown>): Promise<JsonRpcAnswer>;
  notify(method: string, params?: Record<string, unknown>): void;
}

interface Waiter {
  readonly method: string;
  readonly resolve: (answer: JsonRpcAnswer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export function stdioSession(child: ChildProcess, timeoutMs: number): StdioSession {
  const waiting = new Map<number, Waiter>();
  let stderr = '';
  let nextId = 1;
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const settle = (id: number): Waiter | undefined => {
    const waiter = waiting.get(id);
    waiting.delete(id);
    if (waiter !== undefined) clearTimeout(waiter.timer);
    return waiter;
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Partial<JsonRpcAnswer>;
    if (typeof message.id === 'number') settle(message.id)?.resolve(message as JsonRpcAnswer);
  });
  child.once('exit', (code) => {
    for (const id of [...waiting.keys()]) {
      const waiter = settle(id)!;
      waiter.reject(new Error(`the process exited with ${code} before answering ${waiter.method}; stderr:\n${tail(stderr)}`));
    }
  });
  const write = (message: Record<string, unknown>): void => void child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    request: (method, params) => {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(id);
          reject(new Error(`no answer to ${method} within ${timeoutMs} ms; stderr:\n${tail(stderr)}`));
        }, timeoutMs);
        waiting.set(id, { method, resolve, reject, timer });
        write({ id, method, ...(params === undefined ? {} : { params }) });
      });
    },
    notify: (method, params) => write({ method, ...(params === undefined ? {} : { params }) }),
  };
}
