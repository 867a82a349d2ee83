/**
 * A real `quarry serve` process over two indexed repositories, one restricted to the admin, with
 * alice holding a full token and an `mcp`-only one: the starting point of the edge and MCP tests.
 */
import assert from 'node:assert/strict';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { addRepoOfFiles, quarry as runQuarry, type CliRun } from './cli-process.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

export const OPEN = 'github.com/acme/open';
export const SECRET = 'github.com/acme/secret';

export interface RestrictedInstance {
  readonly server: ServerProcess;
  readonly admin: string;
  readonly alice: string;
  readonly aliceMcp: string;
  quarry(args: string[], input?: string): CliRun;
  /** `quarry config set -`: replaces the site configuration. */
  setConfig(contents: string): void;
  /** Stops the server (asserting it exits 0) and removes every directory made. */
  close(): Promise<void>;
}

/** OPEN holds `openFiles`; SECRET holds a plan.go with a Router of its own, visible to the admin only. */
export async function startRestrictedInstance(openFiles: Record<string, string>): Promise<RestrictedInstance> {
  const dirs: string[] = [];
  const data = makeTempDir('quarry-restricted-data');
  const quarry = (args: string[], input?: string): CliRun => runQuarry(data, args, input === undefined ? {} : { input });
  addRepoOfFiles(data, OPEN, openFiles, dirs);
  addRepoOfFiles(data, SECRET, { 'plan.go': 'package secret\n\nfunc Router() {} // secret plan\n' }, dirs);
  assert.equal(quarry(['index']).status, 0);
  const server = await startServerProcess(data);
  assert.equal(quarry(['users', 'create', 'alice', '--email', 'alice@example.com']).status, 0);
  const alice = quarry(['tokens', 'create', 'alice']).stdout.trim();
  const aliceMcp = quarry(['tokens', 'create', 'alice', '--scopes', 'mcp']).stdout.trim();
  assert.equal(quarry(['repos', 'restrict', SECRET]).status, 0);
  return {
    server, admin: server.adminToken!, alice, aliceMcp, quarry,
    setConfig(contents) {
      const set = quarry(['config', 'set', '-'], contents);
      assert.equal(set.status, 0, set.stderr);
    },
    async close() {
      assert.equal(await server.stop(), 0);
      for (const d of [...dirs, data]) removeDir(d);
    },
  };
}
