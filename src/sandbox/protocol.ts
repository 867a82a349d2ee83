/**
 * What passes between a Lua run's worker and its host, as plain clone-safe data: the task, the
 * functions the host serves (each counted against a run limit), the messages on the run's port,
 * and the outcome. The worker is blocked while the host answers a call: see sync-call.ts.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PackedRows } from './packed-rows.js';

/** The functions a script reaches through the host, and the limit each call counts against. */
export const HOST_FUNCTIONS = {
  'search.keyword': 'searches',
  'search.nls': 'searches',
  'search.symbols': 'searches',
  'search.commits': 'searches',
  'search.diffs': 'searches',
  'nav.definition': 'searches',
  'nav.references': 'searches',
  'source.read': 'reads',
  'source.list': 'reads',
} as const;

export type HostFunction = keyof typeof HOST_FUNCTIONS;

/** The site configuration's names (`deepSearch.evaluator.*`) of the limits a run can reach. */
export type LimitName =
  | 'maxSearchesPerExecution'
  | 'maxSourceReadsPerExecution'
  | 'maxGeneratedFileSizeBytes'
  | 'maxExecutionSeconds'
  | 'maxMemoryBytes';

export interface RunLimits {
  readonly maxSearchesPerExecution: number;
  readonly maxSourceReadsPerExecution: number;
  readonly maxGeneratedFileSizeBytes: number;
  readonly maxExecutionSeconds: number;
  /** The worker's V8 heap, and apart from it the bytes of Lua strings alive at once. */
  readonly maxMemoryBytes: number;
}

/** A limit that stopped a run, and the sentence that says so. */
export interface StopReason {
  readonly limit: LimitName;
  readonly message: string;
}

export interface RunTask {
  readonly script: string;
  /** Epoch milliseconds at which the worker is terminated; the script is stopped a little before. */
  readonly deadline: number;
  readonly limits: RunLimits;
  /** The worker's end of the run's channel: calls and output go out on it, replies come back. */
  readonly port: MessagePort;
  /** One Int32 over a SharedArrayBuffer: the host sets it to 1 once a call's reply is on the port. */
  readonly replied: Int32Array;
}

/** What the worker sends on the run's port. */
export type WorkerMessage =
  | { readonly type: 'call'; readonly name: HostFunction; readonly args: readonly unknown[] }
  | { readonly type: 'output'; readonly text: string }
  | { readonly type: 'file'; readonly name: string; readonly mimeType: string; readonly data: Uint8Array };

/**
 * The host's reply to a call: its value (a list of flat rows packed), or the error to raise in the
 * script (a stop ends the run).
 */
export type CallReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: true; readonly rows: PackedRows }
  | { readonly ok: false; readonly message: string; readonly stop?: StopReason };

export interface RunResult {
  /** Messages the worker posted on the port: the host reads that many before it answers. */
  readonly messages: number;
  /** The script's error (message with its line), or null. */
  readonly error: string | null;
  readonly stop: StopReason | null;
  /** Printed characters past the output cap, dropped in the worker. */
  readonly droppedOutputChars: number;
}
