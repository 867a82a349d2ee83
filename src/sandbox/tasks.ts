/**
 * The sandbox pool's one task kind, a Lua run, and the worker entry that serves it. The run's
 * port moves to the worker with the task.
 */
import type { KindTable } from '../pool/kinds.js';
import type { TaskType } from '../pool/pool.js';
import type { RunResult, RunTask } from './protocol.js';

export type SandboxTasks = {
  readonly 'lua-run': TaskType<RunTask, RunResult>;
};

export const SANDBOX_KINDS: KindTable<SandboxTasks> = {
  'lua-run': { what: 'the Lua script', failure: 'INTERNAL', transfer: (task) => [task.port] },
};

export const SANDBOX_ENTRY = new URL('./worker-entry.js', import.meta.url);
