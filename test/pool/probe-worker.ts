/** Worker entry for the probe tasks: what a pool configuration's entry module looks like. */
import { serveTasks } from '../../src/pool/task-entry.js';
import { probeHandlers } from './probe-tasks.js';

export default await serveTasks(async () => probeHandlers);
