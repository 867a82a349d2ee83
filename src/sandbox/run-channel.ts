/**
 * Worker side of a run's port: printed output and generated files go to the host as they are made
 * (so a worker terminated mid-run still leaves what it printed: a print is sent at once unless one
 * went out moments ago, and a burst is sent in pieces), and a call to the host blocks the thread
 * until the reply is on the port: the host posts it, then raises the shared flag. Output past a cap
 * is counted, not sent, so a print loop cannot flood the host.
 */
import { receiveMessageOnPort } from 'node:worker_threads';
import type { CallReply, HostFunction, RunTask, WorkerMessage } from './protocol.js';

/** Printed text is sent in pieces of about this size, or sooner at a call or a flush. */
const OUTPUT_PIECE_CHARS = 8192;
/** Printed text waits at most about this long to be sent while the script runs. */
const FLUSH_EVERY_MS = 200;
/** Printed characters a run may send in all; the host shows far less, and says what it cut. */
export const MAX_OUTPUT_CHARS = 1024 * 1024;

export class RunChannel {
  /** Messages posted so far: the host waits for this many. */
  sent = 0;
  /** Characters printed past MAX_OUTPUT_CHARS, dropped here. */
  droppedChars = 0;
  private pending = '';
  private kept = 0;
  private lastPost = 0;

  constructor(private readonly task: RunTask) {}

  write(text: string): void {
    const room = MAX_OUTPUT_CHARS - this.kept;
    if (text.length > room) {
      this.droppedChars += text.length - Math.max(0, room);
      text = text.slice(0, Math.max(0, room));
    }
    this.kept += text.length;
    this.pending += text;
    if (this.pending.length >= OUTPUT_PIECE_CHARS) this.flush();
    else this.flushIfDue();
  }

  flush(): void {
    if (this.pending === '') return;
    this.post({ type: 'output', text: this.pending });
    this.pending = '';
    this.lastPost = Date.now();
  }

  /** Sends waiting output if nothing went out for a while (the hook calls this as the script runs). */
  flushIfDue(): void {
    if (this.pending !== '' && Date.now() - this.lastPost >= FLUSH_EVERY_MS) this.flush();
  }

  file(name: string, mimeType: string, data: Uint8Array): void {
    this.flush();
    this.post({ type: 'file', name, mimeType, data });
  }

  /** The host's reply, or null when none came before the deadline. */
  call(name: HostFunction, args: readonly unknown[]): CallReply | null {
    this.flush();
    const { replied, port, deadline } = this.task;
    this.post({ type: 'call', name, args });
    const waited = Atomics.wait(replied, 0, 0, Math.max(0, deadline - Date.now()));
    if (waited === 'timed-out') return null;
    Atomics.store(replied, 0, 0);
    const received = receiveMessageOnPort(port);
    if (received === undefined) throw new Error(`the host raised the reply flag for ${name} without a reply on the port`);
    return received.message as CallReply;
  }

  private post(message: WorkerMessage): void {
    this.task.port.postMessage(message);
    this.sent++;
  }
}
