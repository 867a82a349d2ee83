/**
 * `quarry serve`: runs the HTTP server until SIGTERM or SIGINT, then shuts down gracefully
 * (requests in flight get a bounded grace period) and exits 0.
 */
import { parseDatabaseUrl, parseListen, parseRole, positiveInt, type Config } from '../config.js';
import { startServer } from '../main.js';
import { parseFlags, type CliIO, type Command } from './command.js';
import { ENGINE_FLAGS, ENGINE_FLAGS_USAGE, engineConfig } from './engine-flags.js';

const USAGE = `Usage: quarry serve [flags]

Serves the streaming search API (/.api/search/stream), /healthz and /metrics over HTTP, and keeps
mirrors fresh. The first start on an empty data directory creates an admin and prints its token.

Flags:
  --listen HOST:PORT       address (env QUARRY_LISTEN, default 127.0.0.1:7080; port 0 picks one)
  --max-body-bytes BYTES   request body limit, also after gzip (env QUARRY_MAX_BODY_BYTES; default: the site
                           configuration's http.maxBodyBytes, 10485760 unless changed)
  --allow-js-fallback      serve even if uWebSockets.js fell back to its slow pure-JS server
  --database URL           keep accounts, tokens, settings and the repository list in PostgreSQL
                           (postgres://…; env QUARRY_DATABASE_URL), shared by every server given it;
                           default: the embedded store in the data directory
  --role ROLE              all (default: everything in one process), frontend (stateless doors that fan
                           searches out to the search nodes) or search (indexes and searches the
                           repositories it owns); cluster roles need --database and QUARRY_CLUSTER_SECRET
                           (≥ 16 characters, the same on every node); QUARRY_CLUSTER_REPLICATION (default 2)
                           search nodes own each repository
${ENGINE_FLAGS_USAGE}`;

/** How long requests in flight may run on after SIGTERM before they are cut off. */
const SHUTDOWN_GRACE_MS = 10_000;
/** Past the grace period, how long closing the engine may take before the process exits anyway. */
const SHUTDOWN_CLOSE_MS = 15_000;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the HTTP server',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { flags } = parseFlags(args, { ...ENGINE_FLAGS, listen: 'string', database: 'string', 'max-body-bytes': 'string', 'allow-js-fallback': 'boolean', role: 'string' });
    const maxBodyBytes = positiveInt('--max-body-bytes', flags['max-body-bytes']);
    const base: Config = {
      ...engineConfig(flags),
      ...(flags.database !== undefined ? { databaseUrl: parseDatabaseUrl(flags.database) } : {}),
      ...(flags.listen !== undefined ? { listen: parseListen(flags.listen) } : {}),
      ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    };
    const config: Config = { ...base, role: parseRole(flags.role, base.databaseUrl, base.clusterSecret) };
    const server = await startServer(config, { allowJsFallback: flags['allow-js-fallback'] === true, log: (line) => io.err(line) });
    if (server.binding !== 'native') io.err('WARNING: uWebSockets.js native binary did not load; serving on its SLOW pure-JS fallback (--allow-js-fallback)');
    if (server.initialAdmin !== null) {
      io.out(`Created site admin "${server.initialAdmin.username}". Its access token (shown only this once):`);
      io.out(`  ${server.initialAdmin.token}`);
    }
    // Listening for the signals before saying so: a caller that reads the line may signal at once.
    const stopSignal = nextSignal(['SIGTERM', 'SIGINT']);
    io.out(`Quarry listening on ${server.url} (uWebSockets.js ${server.binding})`);
    const signal = await stopSignal;
    io.err(`${signal}: shutting down (up to ${SHUTDOWN_GRACE_MS / 1000} s for requests in flight)`);
    // A thread that cannot be stopped must not keep the process from exiting: committed LMDB
    // transactions are durable, so exiting without closing loses nothing.
    const forced = setTimeout(() => {
      io.err(`${signal}: shutdown did not finish within ${(SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS) / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS);
    forced.unref();
    await server.stop(SHUTDOWN_GRACE_MS);
    clearTimeout(forced);
    return 0;
  },
};

function nextSignal(names: readonly NodeJS.Signals[]): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (name: NodeJS.Signals): void => {
      for (const n of names) process.off(n, handler);
      resolve(name);
    };
    for (const n of names) process.on(n, handler);
  });
}
