/** The sandbox worker's task handlers: a Lua run per task, on a thread whose memory guard is installed. */
import type { TaskHandlers } from '../pool/pool.js';
import { runLua } from './run-lua.js';
import type { SandboxTasks } from './tasks.js';

export const handlers: TaskHandlers<SandboxTasks> = {
  'lua-run': (task) => runLua(task),
};
