/**
 * Host side of one run's port: serves the worker's calls one at a time, counting each against the
 * run's search or source-read limit before running it (past the limit the reply stops the run),
 * and collects printed output and generated files as they arrive. A list of search rows crosses
 * packed (packed-rows.ts). It never evaluates script code.
 */
import type { MessagePort } from 'node:worker_threads';
import { chargeSignalTo, ownerOf } from '../pool/work-owner.js';
import { packRows } from './packed-rows.js';
import { HOST_FUNCTIONS, type CallReply, type HostFunction, type RunLimits, type StopReason, type WorkerMessage } from './protocol.js';

/**
 * Runs one host function for the script; a rejection's message is raised in the script. `signal`
 * aborts when the run ends (or its caller leaves): a call still running then is cancelled with it.
 */
export type HostCall = (name: HostFunction, args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

export interface GeneratedFile {
  readonly name: string;
  readonly mimeType: string;
  readonly data: Uint8Array;
}

export class RunHost {
  searches = 0;
  reads = 0;
  readonly files = new Map<string, GeneratedFile>();
  private readonly output: string[] = [];
  private received = 0;
  private waiter: { count: number; wake: () => void } | null = null;

  /** Aborted when the run ends: a module call still running (its worker killed at the deadline) stops with it. */
  private readonly calls: AbortController;

  constructor(private readonly port: MessagePort, private readonly replied: Int32Array, private readonly limits: RunLimits, private readonly call: HostCall, caller: AbortSignal) {
    this.calls = chargedLike(caller);
    port.on('message', (message: WorkerMessage) => this.receive(message));
  }

  get text(): string {
    return this.output.join('');
  }

  /** Resolves once `count` messages have arrived (the worker's count of what it posted). */
  async receivedAll(count: number): Promise<void> {
    if (this.received >= count) return;
    await new Promise<void>((wake) => (this.waiter = { count, wake }));
  }

  /** Lets messages already on the port arrive (after a worker was terminated), then closes it. */
  async close(): Promise<void> {
    this.calls.abort();
    await new Promise((resolve) => setImmediate(resolve));
    this.port.close();
  }

  private receive(message: WorkerMessage): void {
    this.received++;
    if (message.type === 'output') this.output.push(message.text);
    else if (message.type === 'file') this.files.set(message.name, { name: message.name, mimeType: message.mimeType, data: message.data });
    else void this.serve(message.name, message.args);
    if (this.waiter !== null && this.received >= this.waiter.count) {
      this.waiter.wake();
      this.waiter = null;
    }
  }

  private async serve(name: HostFunction, args: readonly unknown[]): Promise<void> {
    const stop = this.count(name);
    if (stop !== null) return this.reply({ ok: false, message: stop.message, stop });
    try {
      const value = await this.call(name, args, this.calls.signal);
      const rows = packRows(value);
      this.reply(rows === null ? { ok: true, value } : { ok: true, rows });
    } catch (err) {
      this.reply({ ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Counts the call; the stop it runs into, or null. */
  private count(name: HostFunction): StopReason | null {
    if (HOST_FUNCTIONS[name] === 'searches') {
      if (this.searches >= this.limits.maxSearchesPerExecution) {
        return { limit: 'maxSearchesPerExecution', message: `${name} would be search ${this.searches + 1}: a run may make ${this.limits.maxSearchesPerExecution} searches (deepSearch.evaluator.maxSearchesPerExecution)` };
      }
      this.searches++;
    } else {
      if (this.reads >= this.limits.maxSourceReadsPerExecution) {
        return { limit: 'maxSourceReadsPerExecution', message: `${name} would be source read ${this.reads + 1}: a run may make ${this.limits.maxSourceReadsPerExecution} (deepSearch.evaluator.maxSourceReadsPerExecution)` };
      }
      this.reads++;
    }
    return null;
  }

  /** Posts the reply, then raises the flag the worker waits on. */
  private reply(reply: CallReply): void {
    try {
      this.port.postMessage(reply);
    } catch (err) {
      this.port.postMessage({ ok: false, message: `the result could not be passed to the script: ${err instanceof Error ? err.message : String(err)}` } satisfies CallReply);
    }
    Atomics.store(this.replied, 0, 1);
    Atomics.notify(this.replied, 0);
  }
}

/**
 * A controller aborted with the caller's signal, charged to the same caller, so its calls keep
 * their place in the pool's fair queue.
 */
function chargedLike(caller: AbortSignal): AbortController {
  const controller = new AbortController();
  chargeSignalTo(controller.signal, ownerOf(caller));
  if (caller.aborted) controller.abort();
  else caller.addEventListener('abort', () => controller.abort(), { once: true, signal: controller.signal });
  return controller;
}
