/**
 * Configuration, read once: flags win over environment variables, which win over defaults.
 * Every environment variable Quarry reads is read here.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { createError } from './errors.js';

export type MatcherPreference = 'auto' | 'hyperscan' | 'js';

export interface Config {
  readonly dataDir: string;
  /**
   * The instance store's PostgreSQL (`--database`, else QUARRY_DATABASE_URL), shared by every node
   * given the same URL; null: the embedded LMDB store under the data directory.
   */
  readonly databaseUrl: string | null;
  /** Worker threads for search and indexing. */
  readonly threads: number;
  /** Files larger than this many bytes are skipped and counted (Sourcegraph's default: 1 MiB). */
  readonly maxFileSize: number;
  readonly matcher: MatcherPreference;
  /** How often the server fetches mirrors; null: the site configuration's `repos.syncIntervalSeconds`. */
  readonly syncIntervalMs: number | null;
  /** Where `quarry serve` listens; port 0 picks a free port. */
  readonly listen: ListenAddress;
  /** Request bodies larger than this (before or after gzip inflation) are refused with 413. */
  /** Request body limit; null: the site configuration's `http.maxBodyBytes`, read per request. */
  readonly maxBodyBytes: number | null;
  /** SRC_MCP_DISABLE_DEEPSEARCH_TOOL=true hides and refuses the MCP `deepsearch` tool (Sourcegraph's switch). */
  readonly disableDeepsearchTool: boolean;
  /**
   * Browser origins allowed to call the MCP endpoints besides the server's own
   * (QUARRY_MCP_ALLOWED_ORIGINS, comma-separated, e.g. `https://inspector.example.com`).
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** Threads that speak the MCP protocol beside the main thread (QUARRY_MCP_THREADS, default 1). */
  readonly mcpThreads: number;
  /** Main-thread milliseconds one caller may spend per minute before 429 (QUARRY_MAIN_THREAD_MS_PER_MINUTE, pool/main-thread-budget.ts). */
  readonly mainThreadMsPerMinute: number;
  /** Build tree-sitter symbol tables while indexing (QUARRY_SYMBOLS=0 or false turns it off). */
  readonly symbols: boolean;
  /**
   * A secret a Prometheus scraper may send (`Authorization: Bearer …`) to read /metrics without a
   * site admin's access token (QUARRY_METRICS_TOKEN); null: only site admins may scrape.
   */
  readonly metricsToken: string | null;
  /** What `quarry serve` runs (`--role`): everything (`all`), a stateless front end, or a search node. */
  readonly role: ServeRole;
  /** The secret front ends present to search nodes (QUARRY_CLUSTER_SECRET); null outside a cluster. */
  readonly clusterSecret: string | null;
  /** How many search nodes own each repository (QUARRY_CLUSTER_REPLICATION, default 2); the same on every node. */
  readonly replication: number;
  /**
   * How long a search node keeps the index and mirror of a repository it no longer owns
   * (QUARRY_CLUSTER_RETIRE_GRACE_MS, default 2 minutes): front ends with an older view of the
   * members may still ask it meanwhile.
   */
  readonly retireGraceMs: number;
}

export type ServeRole = 'all' | 'frontend' | 'search';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface ConfigOverrides {
  readonly dataDir?: string;
  /** postgres://… */
  readonly databaseUrl?: string;
  readonly threads?: number;
  readonly maxFileSize?: number;
  readonly matcher?: string;
  /** HOST:PORT */
  readonly listen?: string;
  readonly maxBodyBytes?: number;
}

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/**
 * A tenth of the main thread per caller, in a bucket that holds a minute's worth: an agent's
 * ordinary requests spend well under a millisecond each there, so only a caller sending costly
 * documents or queries in a loop (a 2,000-term query takes about 20 ms to parse) meets it.
 */
export const DEFAULT_MAIN_THREAD_MS_PER_MINUTE = 6000;

export const DEFAULT_DATA_DIR = './data';

export const DEFAULT_LISTEN = '127.0.0.1:7080';


/** QUARRY_DATABASE_URL, checked: the store's PostgreSQL for commands without --database; null when unset. */
export function databaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  return parseDatabaseUrl(nonEmpty(env['QUARRY_DATABASE_URL']));
}

/** A `--database` / QUARRY_DATABASE_URL value, checked; null when unset. */
export function parseDatabaseUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!/^postgres(ql)?:\/\/./.test(value)) throw createError('USAGE', '--database (QUARRY_DATABASE_URL) must be a postgres:// or postgresql:// URL, e.g. postgres://quarry@db.internal:5432/quarry');
  return value;
}

/** `--data DIR`, else `$QUARRY_DATA`, else `./data`, as an absolute path (not created here). */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (flag !== undefined && flag.trim() === '') throw createError('USAGE', '--data needs a directory');
  return resolve(cwd, flag ?? nonEmpty(env['QUARRY_DATA']) ?? DEFAULT_DATA_DIR);
}

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  return Object.freeze({
    dataDir: resolveDataDir(overrides.dataDir, env),
    databaseUrl: parseDatabaseUrl(overrides.databaseUrl ?? nonEmpty(env['QUARRY_DATABASE_URL'])),
    threads: overrides.threads ?? positiveInt('QUARRY_THREADS', env['QUARRY_THREADS']) ?? availableParallelism(),
    maxFileSize: overrides.maxFileSize ?? positiveInt('QUARRY_MAX_FILE_SIZE', env['QUARRY_MAX_FILE_SIZE']) ?? DEFAULT_MAX_FILE_SIZE,
    matcher: matcherPreference(overrides.matcher ?? nonEmpty(env['QUARRY_MATCHER']) ?? 'auto'),
    syncIntervalMs: positiveInt('QUARRY_SYNC_INTERVAL_MS', env['QUARRY_SYNC_INTERVAL_MS']) ?? null,
    listen: parseListen(overrides.listen ?? nonEmpty(env['QUARRY_LISTEN']) ?? DEFAULT_LISTEN),
    maxBodyBytes: overrides.maxBodyBytes ?? positiveInt('QUARRY_MAX_BODY_BYTES', env['QUARRY_MAX_BODY_BYTES']) ?? null,
    disableDeepsearchTool: booleanEnv('SRC_MCP_DISABLE_DEEPSEARCH_TOOL', env['SRC_MCP_DISABLE_DEEPSEARCH_TOOL']),
    mcpAllowedOrigins: originList(env['QUARRY_MCP_ALLOWED_ORIGINS']),
    mcpThreads: positiveInt('QUARRY_MCP_THREADS', env['QUARRY_MCP_THREADS']) ?? 1,
    mainThreadMsPerMinute: positiveInt('QUARRY_MAIN_THREAD_MS_PER_MINUTE', env['QUARRY_MAIN_THREAD_MS_PER_MINUTE']) ?? DEFAULT_MAIN_THREAD_MS_PER_MINUTE,
    symbols: env['QUARRY_SYMBOLS'] === undefined || env['QUARRY_SYMBOLS'].trim() === '' ? true : booleanEnv('QUARRY_SYMBOLS', env['QUARRY_SYMBOLS']),
    metricsToken: metricsToken(env['QUARRY_METRICS_TOKEN']),
    role: 'all',
    clusterSecret: clusterSecret(env['QUARRY_CLUSTER_SECRET']),
    replication: positiveInt('QUARRY_CLUSTER_REPLICATION', env['QUARRY_CLUSTER_REPLICATION']) ?? 2,
    retireGraceMs: positiveInt('QUARRY_CLUSTER_RETIRE_GRACE_MS', env['QUARRY_CLUSTER_RETIRE_GRACE_MS']) ?? 120_000,
  });
}

/** QUARRY_DEBUG=1 adds stack traces to the CLI's one-line errors. */
export function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['QUARRY_DEBUG'] === '1';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function booleanEnv(name: string, value: string | undefined): boolean {
  const text = nonEmpty(value)?.trim().toLowerCase();
  if (text === undefined || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw createError('USAGE', `${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** Short secrets can be guessed; the check runs before any request can try one. */
function metricsToken(value: string | undefined): string | null {
  const token = nonEmpty(value)?.trim();
  if (token === undefined) return null;
  if (token.length < 16 || /\s/.test(token)) throw createError('USAGE', 'QUARRY_METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 32`)');
  return token;
}

function clusterSecret(value: string | undefined): string | null {
  const secret = nonEmpty(value)?.trim();
  if (secret === undefined) return null;
  if (secret.length < 16 || /\s/.test(secret)) throw createError('USAGE', 'QUARRY_CLUSTER_SECRET must be at least 16 characters without spaces (e.g. `openssl rand -hex 32`)');
  return secret;
}

/** `--role`, checked; a cluster role needs the shared database and the cluster secret. */
export function parseRole(value: string | undefined, databaseUrl: string | null, secret: string | null): ServeRole {
  if (value === undefined || value === 'all') return 'all';
  if (value !== 'frontend' && value !== 'search') throw createError('USAGE', `--role must be all, frontend or search, got ${JSON.stringify(value)}`);
  if (databaseUrl === null) throw createError('USAGE', `--role ${value} needs the shared PostgreSQL (--database or QUARRY_DATABASE_URL)`);
  if (secret === null) throw createError('USAGE', `--role ${value} needs QUARRY_CLUSTER_SECRET, the same on every node`);
  return value;
}

function originList(value: string | undefined): string[] {
  return (nonEmpty(value) ?? '').split(',').map((o) => o.trim()).filter(Boolean).map((origin) => {
    try {
      return new URL(origin).origin;
    } catch {
      throw createError('USAGE', `QUARRY_MCP_ALLOWED_ORIGINS: ${JSON.stringify(origin)} is not an origin such as https://host:port`);
    }
  });
}

export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (nonEmpty(value) === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw createError('USAGE', `${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (all interfaces); port 0 asks for a free port. */
export function parseListen(value: string): ListenAddress {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw createError('USAGE', `listen address must be HOST:PORT, got ${JSON.stringify(value)}`);
  const host = m[1] ?? m[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port };
}

function matcherPreference(value: string): MatcherPreference {
  if (value === 'auto' || value === 'hyperscan' || value === 'js') return value;
  throw createError('USAGE', `matcher must be auto, hyperscan or js, got ${JSON.stringify(value)}`);
}

/**
 * A secret the site configuration names by its environment variable (deepSearch.model.apiKeyEnvVar):
 * read when it is needed, so the configuration never holds it; null when unset or empty.
 */
export function secretFromEnvironment(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env[name];
  return value === undefined || value === '' ? null : value;
}
