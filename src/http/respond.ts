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
  /** `last`: a final chunk, sent with the end in one write. */
  end(last?: string | Uint8Array): void;
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

/** What a reply needs of its request: whether the client went away, and a word when it does. */
export interface AbortSource {
  readonly aborted: boolean;
  whenAborted(listener: () => void): void;
}

export function createReply(res: UwsResponse, request: AbortSource, hooks: ReplyHooks): Reply {
  const reply = new UwsReply(res, request, hooks);
  request.whenAborted(() => reply.finish());
  return reply;
}

/** A class, not closures: one is made per request, and its methods are shared. */
class UwsReply implements Reply {
  private status = 0;
  private ended = false;
  private drained: ((ok: boolean) => void) | null = null;

  constructor(
    private readonly res: UwsResponse,
    private readonly request: AbortSource,
    private readonly hooks: ReplyHooks,
  ) {}

  get finished(): boolean {
    return this.ended || this.request.aborted;
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.drained?.(false);
    this.drained = null;
    this.hooks.onFinish(this.status);
  }

  send(code: number, body: string | Uint8Array, headers: Headers = NO_HEADERS, options: { closeConnection?: boolean } = {}): void {
    if (this.finished) return;
    this.res.cork(() => {
      this.head(code, headers);
      this.res.end(body, options.closeConnection ?? this.hooks.closing());
    });
    this.finish();
  }

  text(code: number, text: string, headers?: Headers): void {
    this.send(code, `${text}\n`, headers === undefined ? TEXT_HEADERS : { ...TEXT_HEADERS, ...headers });
  }

  json(code: number, value: unknown, headers?: Headers): void {
    this.send(code, JSON.stringify(value), headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers });
  }

  stream(code: number, headers: Headers): StreamWriter {
    if (!this.finished) {
      this.res.cork(() => this.head(code, headers));
      // The pure-JS fallback has no onWritable; node:http buffers what it cannot send yet.
      if (binding === 'native') this.res.onWritable(() => {
        const resume = this.drained;
        this.drained = null;
        resume?.(true);
        return true;
      });
    }
    return {
      write: (chunk) => {
        if (this.finished) return Promise.resolve(false);
        let accepted = true;
        this.res.cork(() => (accepted = this.res.write(chunk)));
        if (accepted || binding !== 'native') return Promise.resolve(true);
        return new Promise((resolve) => (this.drained = resolve));
      },
      end: (last) => {
        if (this.finished) return;
        // No closeConnection here: after chunked writes, uWS 20.30 emits that "Connection: close"
        // header inside the body, which corrupts the response.
        this.res.cork(() => this.res.end(last));
        this.finish();
      },
    };
  }

  private head(code: number, headers: Headers): void {
    this.status = code;
    this.res.writeStatus(STATUS_LINES[code] ?? `${code} ${STATUS_CODES[code] ?? ''}`.trimEnd());
    for (const name in headers) this.res.writeHeader(name, headers[name]!);
  }
}

const NO_HEADERS: Headers = Object.freeze({});
// Shared, not made per reply: most replies add nothing to them.
const TEXT_HEADERS: Headers = Object.freeze({ 'Content-Type': 'text/plain; charset=utf-8' });
const JSON_HEADERS: Headers = Object.freeze({ 'Content-Type': 'application/json' });

/** "200 OK" and the like, made once. */
const STATUS_LINES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(STATUS_CODES).map(([code, text]) => [code, `${code} ${text}`]));
