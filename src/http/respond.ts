/**
 * Writing responses through uWS: every write inside res.cork, nothing written after the client
 * aborted or the response ended, and a streaming writer that waits for the socket to drain.
 */
import { STATUS_CODES } from 'node:http';
import { binding, type UwsResponse } from './uws.js';

export type Headers = Readonly<Record<string, string>>;

export interface StreamWriter {
  /** Resolves true once uWS took the chunk and its buffer has drained; false when the client is gone. */
  write(chunk: string | Uint8Array): Promise<boolean>;
  end(): void;
}

export interface Reply {
  /** Ended, or the client went away. */
  readonly finished: boolean;
  send(status: number, body: string | Uint8Array, headers?: Headers, options?: { closeConnection?: boolean }): void;
  text(status: number, text: string, headers?: Headers): void;
  json(status: number, value: unknown, headers?: Headers): void;
  stream(status: number, headers: Headers): StreamWriter;
}

export interface ReplyHooks {
  onFinish(status: number): void;
  /** True while the server shuts down: responses then close their connection. */
  closing(): boolean;
}

export function createReply(res: UwsResponse, signal: AbortSignal, hooks: ReplyHooks): Reply {
  let status = 0;
  let ended = false;
  let drained: ((ok: boolean) => void) | null = null;
  const finish = (): void => {
    if (ended) return;
    ended = true;
    drained?.(false);
    drained = null;
    hooks.onFinish(status);
  };
  signal.addEventListener('abort', finish, { once: true });
  const head = (code: number, headers: Headers): void => {
    status = code;
    res.writeStatus(`${code} ${STATUS_CODES[code] ?? ''}`.trimEnd());
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
  };

  const reply: Reply = {
    get finished() {
      return ended || signal.aborted;
    },
    send(code, body, headers = {}, options = {}) {
      if (reply.finished) return;
      res.cork(() => {
        head(code, headers);
        res.end(body, options.closeConnection ?? hooks.closing());
      });
      finish();
    },
    text: (code, text, headers = {}) => reply.send(code, `${text}\n`, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }),
    json: (code, value, headers = {}) => reply.send(code, JSON.stringify(value), { 'Content-Type': 'application/json', ...headers }),
    stream(code, headers) {
      if (!reply.finished) {
        res.cork(() => head(code, headers));
        // The pure-JS fallback has no onWritable; node:http buffers what it cannot send yet.
        if (binding === 'native') res.onWritable(() => {
          const resume = drained;
          drained = null;
          resume?.(true);
          return true;
        });
      }
      return {
        write(chunk) {
          if (reply.finished) return Promise.resolve(false);
          let accepted = true;
          res.cork(() => (accepted = res.write(chunk)));
          if (accepted || binding !== 'native') return Promise.resolve(true);
          return new Promise((resolve) => (drained = resolve));
        },
        end() {
          if (reply.finished) return;
          // No closeConnection here: after chunked writes, uWS 20.30 emits that "Connection: close"
          // header inside the body, which corrupts the response.
          res.cork(() => res.end());
          finish();
        },
      };
    },
  };
  return reply;
}
