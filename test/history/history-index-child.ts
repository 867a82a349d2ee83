/**
 * A history index build in a process of its own, for the kill -9 test: argv is the bare
 * repository, the data directory and the repository id. Prints nothing; exits 0 when done.
 */
import { updateHistoryIndex } from '../../src/history/history-indexer.js';
import { openHistoryIndexes } from '../../src/index/history/history-store.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';

const [gitDir = '', dataDir = '', repoId = '1'] = process.argv.slice(2);
const pool = createInThreadEnginePool();
const indexes = openHistoryIndexes(dataDir);
await updateHistoryIndex(indexes.of(Number(repoId)), gitDir, pool);
await indexes.close();
await pool.close();
