/**
 * One `startServer` on a PostgreSQL store for the catch-up benchmark, run as its own process so
 * the client's timing shares no event loop with it: `node catch-up-server.js URL DATA on|off`.
 * Prints `listening on URL` (and the first admin's token, when it made one) as `quarry serve` does.
 */
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';

const [databaseUrl, dataDir, catchUp] = process.argv.slice(2);
const server = await startServer(loadConfig({ dataDir: dataDir!, databaseUrl: databaseUrl!, listen: '127.0.0.1:0', threads: 1 }), {
  catchUpPerRequest: catchUp === 'on',
});
console.log(`listening on ${server.url}`);
if (server.initialAdmin !== null) console.log(`  ${server.initialAdmin.token}`);
process.on('SIGTERM', () => void server.stop(1000).then(() => process.exit(0)));
