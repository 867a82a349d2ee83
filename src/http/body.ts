/**
 * Reads a request body from uWS: copies every chunk (uWS reuses their memory), stops at the size
 * bound, and inflates `Content-Encoding: gzip` with a bound on the inflated size too.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { RequestHead, ServedRequest } from './request.js';
import type { UwsResponse } from './uws.js';

const gunzipAsync = promisify(gunzip);

export type BodyResult =
  | { readonly ok: true; readonly body: Uint8Array }
  /** status 0: the client went away while sending. `drained`: the body was read to its end, so the connection may stay open. */
  | { readonly ok: false; readonly status: number; readonly message: string; readonly drained?: boolean };

const EMPTY = new Uint8Array(0);

/** GET-style requests without Content-Length or Transfer-Encoding get no onData calls from uWS. */
export function hasBody(head: RequestHead): boolean {
  const length = head.headers['content-length'];
  return (length !== undefined && length.trim() !== '0') || head.headers['transfer-encoding'] !== undefined;
}

/**
 * Must be called before the handler's first await: uWS drops chunks that arrive with no onData. A
 * body declared over `maxBytes` is refused unread; one under `drainBytes` (a route's bound tighter
 * than the server's) is first read and dropped, uncopied, so a client still uploading gets the 413.
 */
export function readBody(res: UwsResponse, head: ServedRequest, maxBytes: number, drainBytes: number = maxBytes): Promise<BodyResult> {
  if (!hasBody(head)) return Promise.resolve({ ok: true, body: EMPTY });
  const declared = Number(head.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (declared > drainBytes) return Promise.resolve(tooLarge(maxBytes));
    return discardBody(res, head, drainBytes).then((drained) => ({ ...tooLarge(maxBytes), drained }));
  }
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    head.whenAborted(() => settle({ ok: false, status: 0, message: 'client went away' }));
    res.onData((chunk, isLast) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > maxBytes) return settle(tooLarge(maxBytes));
      chunks.push(new Uint8Array(chunk.slice(0)));
      // Most bodies come in one chunk, already copied: no second copy to join them.
      if (isLast) void decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), head.headers['content-encoding'], maxBytes).then(settle);
    });
  });
}

/**
 * Reads a body only to drop it, so a refusal can be answered on a connection that stays open: a
 * client still uploading when the server closes sees a broken pipe, not the answer. Resolves false
 * when the body is over `maxBytes` (declared or sent) or the client went away: close then.
 */
export function discardBody(res: UwsResponse, head: ServedRequest, maxBytes: number): Promise<boolean> {
  if (!hasBody(head)) return Promise.resolve(true);
  const declared = Number(head.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let total = 0;
    let settled = false;
    const settle = (drained: boolean): void => {
      if (settled) return;
      settled = true;
      resolve(drained);
    };
    head.whenAborted(() => settle(false));
    res.onData((chunk, isLast) => {
      total += chunk.byteLength;
      if (total > maxBytes) settle(false);
      else if (isLast) settle(true);
    });
  });
}

async function decode(raw: Uint8Array, encoding: string | undefined, maxBytes: number): Promise<BodyResult> {
  const name = encoding?.trim().toLowerCase() ?? 'identity';
  if (name === 'identity' || name === '') return { ok: true, body: raw };
  if (name !== 'gzip' && name !== 'x-gzip') return { ok: false, status: 415, message: `unsupported Content-Encoding ${JSON.stringify(encoding)} (gzip is accepted)` };
  try {
    return { ok: true, body: await gunzipAsync(raw, { maxOutputLength: maxBytes }) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return tooLarge(maxBytes, 'inflated ');
    return { ok: false, status: 400, message: `request body is not valid gzip: ${(err as Error).message}` };
  }
}

function tooLarge(maxBytes: number, what = ''): BodyResult {
  return { ok: false, status: 413, message: `request body too large: the ${what}body limit is ${maxBytes} bytes` };
}
