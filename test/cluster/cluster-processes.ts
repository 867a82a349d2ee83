/**
 * A real cluster for tests and benchmarks: a private PostgreSQL, the repositories registered in it
 * with `quarry repos add` (QUARRY_DATABASE_URL), optionally a single `--role all` server over the
 * same store (the reference answers), search nodes and a front end, each a `quarry serve` process
 * with its own data directory. Also the stream API and GraphQL as a client calls them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../store/postgres-server.js';
import { BIN } from '../e2e/cli-process.js';
import { startServerProcess, type ServerProcess } from '../e2e/server-process.js';

export { postgresMissing };

export interface ClusterOptions {
  /** Repository name → a git directory or bundle to mirror. */
  readonly repos: Readonly<Record<string, string>>;
  readonly searchNodes: number;
  /** Also start one `--role all` server over the same store. */
  readonly single: boolean;
  readonly replication?: number;
  /** More environment for every process (QUARRY_CLUSTER_RETIRE_GRACE_MS …). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface TestCluster {
  readonly url: string;
  readonly env: NodeJS.ProcessEnv;
  readonly single: ServerProcess | null;
  readonly searchNodes: ServerProcess[];
  readonly frontend: ServerProcess;
  readonly adminToken: string;
  /** Runs `quarry ARGS` against the cluster's store; its stdout. */
  cli(args: readonly string[]): string;
  /** Starts one more search node (it joins while the others serve); also added to searchNodes. */
  addSearchNode(): Promise<ServerProcess>;
  stop(): Promise<void>;
}

export const CLUSTER_SECRET = 'test-cluster-secret-0123456789abcdef';

export async function startTestCluster(options: ClusterOptions): Promise<TestCluster> {
  const postgres: PostgresServer = await startPostgres();
  const dirs: string[] = [];
  const processes: ServerProcess[] = [];
  const dir = (label: string): string => {
    const d = makeTempDir(label);
    dirs.push(d);
    return d;
  };
  const url = postgres.createDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env, QUARRY_DATABASE_URL: url, QUARRY_CLUSTER_SECRET: CLUSTER_SECRET, QUARRY_SYNC_INTERVAL_MS: '1000',
    QUARRY_THREADS: '2', QUARRY_CLUSTER_REPLICATION: String(options.replication ?? 2), ...options.env,
  };
  const cliData = dir('quarry-cluster-cli');
  const cli = (args: readonly string[]): string => {
    // `cluster status` reads only PostgreSQL; the other commands take the data directory too.
    const run = spawnSync(process.execPath, [BIN, ...args, ...(args[0] === 'cluster' ? [] : ['--data', cliData])], { encoding: 'utf8', env });
    assert.equal(run.status, 0, `quarry ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };
  const stop = async (): Promise<void> => {
    for (const p of processes) await p.stop();
    for (const d of dirs) removeDir(d);
    postgres.stop();
  };
  try {
    for (const [name, source] of Object.entries(options.repos)) cli(['repos', 'add', name, source]);
    const serve = async (label: string, args: readonly string[]): Promise<ServerProcess> => {
      const server = await startServerProcess(dir(`quarry-cluster-${label}`), args, env);
      processes.push(server);
      return server;
    };
    const single = options.single ? await serve('single', ['--database', url]) : null;
    const searchNodes: ServerProcess[] = [];
    for (let i = 0; i < options.searchNodes; i++) searchNodes.push(await serve(`search-${i}`, ['--role', 'search']));
    const frontend = await serve('frontend', ['--role', 'frontend']);
    const adminToken = [single, ...searchNodes, frontend].map((p) => p?.adminToken ?? null).find((t) => t !== null);
    assert.ok(adminToken, 'the first server on the empty database printed the admin token');
    const addSearchNode = async (): Promise<ServerProcess> => {
      const node = await serve(`search-${searchNodes.length}`, ['--role', 'search']);
      searchNodes.push(node);
      return node;
    };
    return { url, env, single, searchNodes, frontend, adminToken, cli, addSearchNode, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface StreamAnswer {
  readonly status: number;
  readonly events: readonly string[];
  readonly matches: readonly any[];
  /** The final progress event (done: true). */
  readonly done: any;
  readonly alert: any;
}

/** One stream search, read to the end. */
export async function streamSearch(base: string, token: string, query: string): Promise<StreamAnswer> {
  const response = await fetch(`${base}/.api/search/stream?q=${encodeURIComponent(query)}`, { headers: { Authorization: `token ${token}` } }).catch((error: Error) => {
    // fetch says only `fetch failed`; the socket's reason is its cause's.
    throw new Error(`${error.message}: ${String((error.cause as Error | undefined)?.message ?? error.cause)}`);
  });
  const text = await response.text();
  const events: string[] = [];
  const matches: any[] = [];
  let done: any = null;
  let alert: any = null;
  for (const block of text.split('\n\n')) {
    const name = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (name === undefined) continue;
    events.push(name);
    const value = data === undefined ? null : JSON.parse(data);
    if (name === 'matches') matches.push(...value);
    if (name === 'progress' && value.done === true) done = value;
    if (name === 'alert') alert = value;
  }
  return { status: response.status, events, matches, done, alert };
}

/** A stream answer's matches as sorted keys: what was found, whatever order it streamed in. */
export function matchKeys(answer: StreamAnswer): string[] {
  return answer.matches.map((m) => m.type === 'repo'
    ? `repo ${m.repository}`
    : `${m.type} ${m.repository} ${m.path} ${JSON.stringify((m.lineMatches ?? []).map((l: any) => [l.lineNumber, l.offsetAndLengths]))}`).sort();
}

export const GRAPHQL_SEARCH = `query($q: String!) { search(query: $q, version: V3) { results {
  results { __typename ... on FileMatch { repository { name } file { path } lineMatches { lineNumber offsetAndLengths } } ... on Repository { name } }
  matchCount limitHit
} } }`;

export async function graphqlSearch(base: string, token: string, query: string): Promise<any> {
  const response = await fetch(`${base}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: GRAPHQL_SEARCH, variables: { q: query } }),
  });
  assert.equal(response.status, 200);
  const body = await response.json() as any;
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data.search.results;
}

/** Asks until `ready` holds (indexing on every node takes a while on a loaded machine). */
export async function waitFor<T>(what: string, ask: () => Promise<T>, ready: (value: T) => boolean, timeoutMs = 300_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T = await ask();
  while (!ready(last)) {
    if (Date.now() > until) assert.fail(`${what}: not ready within ${timeoutMs / 1000} s; last: ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    last = await ask();
  }
  return last;
}
