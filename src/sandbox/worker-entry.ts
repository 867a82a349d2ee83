/**
 * The sandbox pool's worker entry. Before fengari loads: the string memory guard replaces the
 * thread's Uint8Array, and fengari's configuration is fixed here rather than taken from the
 * environment (FENGARICONF), with a Lua stack small enough to overflow well inside the heap cap.
 */
import { serveTasks } from '../pool/task-entry.js';
import { installMemoryGuard } from './memory-guard.js';

const FENGARI_CONFIGURATION = { LUAI_MAXSTACK: 50_000 };

export default await serveTasks(async () => {
  installMemoryGuard();
  process.env['FENGARICONF'] = JSON.stringify(FENGARI_CONFIGURATION);
  return (await import('./worker.js')).handlers;
});
