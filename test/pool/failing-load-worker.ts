/** Worker entry whose handlers fail to load: the thread ends with an error before it serves a task. */
import { serveTasks } from '../../src/pool/task-entry.js';
import type { ProbeTasks } from './probe-tasks.js';

export default await serveTasks<ProbeTasks>(async () => {
  throw new Error('this worker cannot load its handlers');
});
