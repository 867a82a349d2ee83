/** The engine's worker entry: serves the tasks of worker.ts, whose native modules load once the pool has been told. */
import { serveTasks } from './task-entry.js';

export default await serveTasks(async () => (await import('./worker.js')).handlers);
