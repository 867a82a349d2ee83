/**
 * Framing of `git cat-file --batch` output: "<oid> <type> <size>\n<content>\n" or "<oid> missing\n".
 * Pure bytes in, frames out; it knows nothing of processes, and never loops over bytes in JS.
 */

import { createError } from '../errors.js';

export interface BatchFrame {
  readonly oid: string;
  /** `blob`, `tree`, `commit`, `tag`; or `missing` / `ambiguous` when git has no such single object. */
  readonly type: string;
  readonly size: number;
  /** The content, or null when it was declined or there is no object. */
  readonly content: Buffer | null;
}

export interface BatchFrameHandlers {
  /** Asked at each object header; declined content is skipped without being buffered. */
  wants(type: string, size: number): boolean;
  frame(frame: BatchFrame): void;
}

interface OpenFrame {
  readonly oid: string;
  readonly type: string;
  readonly size: number;
  readonly keep: boolean;
}

export class BatchFrameParser {
  private headerParts: Buffer[] = [];
  private open: OpenFrame | null = null;
  /** Content bytes plus the trailing newline still to come for the open frame. */
  private remaining = 0;
  private bodyParts: Buffer[] = [];

  constructor(private readonly handlers: BatchFrameHandlers) {}

  /** Feeds the next chunk of stdout; throws GIT_FAILED on output that breaks the framing. */
  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.open !== null) {
        offset = this.takeBody(this.open, chunk, offset);
        continue;
      }
      const newline = chunk.indexOf(10, offset);
      if (newline === -1) {
        this.headerParts.push(chunk.subarray(offset));
        return;
      }
      let header: string;
      if (this.headerParts.length === 0) {
        header = chunk.toString('latin1', offset, newline);
      } else {
        this.headerParts.push(chunk.subarray(offset, newline));
        header = Buffer.concat(this.headerParts).toString('latin1');
        this.headerParts = [];
      }
      offset = newline + 1;
      this.startFrame(header);
    }
  }

  private startFrame(header: string): void {
    const [oid = '', type = '', sizeField, ...rest] = header.split(' ');
    if (sizeField === undefined && (type === 'missing' || type === 'ambiguous')) {
      this.handlers.frame({ oid, type, size: 0, content: null });
      return;
    }
    if (sizeField === undefined || rest.length > 0 || !/^\d+$/.test(sizeField)) {
      throw createError('GIT_FAILED', `git cat-file sent an unexpected header: ${header.slice(0, 200)}`);
    }
    const size = Number(sizeField);
    this.open = { oid, type, size, keep: this.handlers.wants(type, size) };
    this.remaining = size + 1;
  }

  private takeBody(open: OpenFrame, chunk: Buffer, offset: number): number {
    const take = Math.min(this.remaining, chunk.length - offset);
    if (open.keep) this.bodyParts.push(chunk.subarray(offset, offset + take));
    this.remaining -= take;
    if (this.remaining === 0) this.finishFrame(open);
    return offset + take;
  }

  private finishFrame(open: OpenFrame): void {
    this.open = null;
    let content: Buffer | null = null;
    if (open.keep) {
      // One copy per object: detaches the content from stream chunks that other frames share.
      const body = Buffer.concat(this.bodyParts, open.size + 1);
      if (body[open.size] !== 10) throw createError('GIT_FAILED', `git cat-file framing broken after ${open.oid}`);
      content = body.subarray(0, open.size);
    }
    this.bodyParts = [];
    this.handlers.frame({ oid: open.oid, type: open.type, size: open.size, content });
  }
}
