/**
 * A real `quarry serve` for the MCP end-to-end tests: a temp data dir with one small git repository
 * added and indexed through the `quarry` command, the server's URL and admin token, and the tool
 * names each MCP endpoint must list according to the registry's table.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENDPOINT_PATHS, ENDPOINT_TABLE, IMPLEMENTED } from '../../../src/api/mcp/registry.js';
import type { Endpoint } from '../../../src/api/mcp/tool.js';
import { isMcpToolName } from '../../../src/model/mcp-tools.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';

const BIN = fileURLToPath(new URL('../../../../bin/quarry.js', import.meta.url));

export const REPO = 'github.com/acme/quarry-mcp-demo';
export const FILE_PATH = 'greet/hello.go';
export const FILE_CONTENT = 'package greet\n\n// Hello says hello to the MCP conformance suite.\nfunc Hello() string { return "hello" }\n';
export const ENDPOINTS = Object.keys(ENDPOINT_PATHS) as Endpoint[];

export interface QuarryFixture {
  readonly server: ServerProcess;
  readonly url: string;
  readonly adminToken: string;
  readonly dataDir: string;
  endpointUrl(endpoint: Endpoint): string;
  dispose(): Promise<void>;
}

function quarry(args: readonly string[]): void {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, `quarry ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
}

/** `env`: the server process's environment (e.g. NODE_EXTRA_CA_CERTS for a test's own TLS server). */
export async function startQuarry(env: NodeJS.ProcessEnv = process.env): Promise<QuarryFixture> {
  const source = makeTempDir('quarry-mcp-src');
  const data = makeTempDir('quarry-mcp-data');
  initRepo(source);
  writeFiles(source, { [FILE_PATH]: FILE_CONTENT, 'README.md': '# demo\n' });
  commitAll(source, 'initial');
  quarry(['repos', 'add', REPO, source, '--data', data]);
  quarry(['index', '--data', data]);
  const server = await startServerProcess(data, [], env);
  assert.ok(server.adminToken, 'the first start on an empty data dir prints an admin token');
  return {
    server,
    url: server.url,
    adminToken: server.adminToken,
    dataDir: data,
    endpointUrl: (endpoint) => `${server.url}${ENDPOINT_PATHS[endpoint]}`,
    dispose: async () => {
      await server.stop();
      removeDir(source);
      removeDir(data);
    },
  };
}

/** The implemented tools the registry's table places on the endpoint, sorted by name. */
export function expectedToolNames(endpoint: Endpoint): string[] {
  return IMPLEMENTED.map((tool) => tool.name).filter((name) => isMcpToolName(name) && ENDPOINT_TABLE[name].includes(endpoint)).sort();
}
