/**
 * A real `quarry serve` process over real repositories for the hostile-input tests of the front
 * doors: one open repository with two commits, one restricted to admins, one whose mirror a test
 * may break; tokens for the admin and for alice (a plain user), and the data directory's path,
 * which no answer may contain. The instance is public (`auth.public`), so anonymous callers get in.
 */
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from '../e2e/server-process.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));

export const OPEN = 'github.com/acme/open';
export const SECRET = 'github.com/acme/secret';
export const BROKEN = 'github.com/acme/broken';

export interface ServedQuarry {
  readonly url: string;
  /** The server process, for its resident memory. */
  readonly pid: number;
  readonly dataDir: string;
  readonly admin: string;
  readonly alice: string;
  /** The first and second commit of OPEN's main branch. */
  readonly commits: readonly [string, string];
  quarry(args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Moves BROKEN's mirror away, as a failed disk or an operator's mistake would; returns the undo. */
  breakMirror(): () => void;
  /** Alive and answering: /healthz says ok. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startServedQuarry(): Promise<ServedQuarry> {
  const dataDir = makeTempDir('quarry-hostile-data');
  const sources: string[] = [];
  const quarry = (args: string[]): { status: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, [BIN, ...args, '--data', dataDir], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const addRepo = (name: string, versions: Record<string, string>[]): string[] => {
    const dir = makeTempDir('quarry-hostile-src');
    sources.push(dir);
    initRepo(dir);
    const commits = versions.map((files, i) => {
      writeFiles(dir, files);
      return commitAll(dir, `version ${i + 1}`);
    });
    const added = quarry(['repos', 'add', name, dir]);
    assert.equal(added.status, 0, added.stderr);
    return commits;
  };
  const [first, second] = addRepo(OPEN, [
    { 'README.md': '# Open\n', 'src/app.ts': 'export function route(path: string): string {\n  return path;\n}\n' },
    { 'src/app.ts': 'export function route(path: string): string {\n  return `/${path}`;\n}\n' },
  ]);
  addRepo(SECRET, [{ 'plan.ts': 'export const plan = "secret";\n' }]);
  addRepo(BROKEN, [{ 'broken.ts': 'export const broken = true;\n' }]);
  assert.equal(quarry(['index']).status, 0);
  assert.equal(quarry(['repos', 'restrict', SECRET]).status, 0);
  // A public instance: these tests also ask as anonymous callers (private mode has its own tests).
  const config = join(dataDir, 'public.jsonc');
  writeFileSync(config, '{"auth.public": true}');
  assert.equal(quarry(['config', 'set', config]).status, 0);
  const server: ServerProcess = await startServerProcess(dataDir);
  assert.equal(quarry(['users', 'create', 'alice', '--email', 'alice@example.com']).status, 0);
  const alice = quarry(['tokens', 'create', 'alice', '--scopes', 'user:all,mcp']).stdout.trim();
  const brokenMirror = JSON.parse(quarry(['repos', 'list', '--json']).stdout).find((r: { name: string }) => r.name === BROKEN).mirrorPath as string;
  return {
    url: server.url,
    pid: server.child.pid!,
    dataDir,
    admin: server.adminToken!,
    alice,
    commits: [first!, second!],
    quarry,
    breakMirror() {
      const mirror = join(dataDir, brokenMirror);
      renameSync(mirror, `${mirror}.moved`);
      return () => renameSync(`${mirror}.moved`, mirror);
    },
    async healthy() {
      const response = await fetch(`${server.url}/healthz`);
      return response.status === 200 && (await response.text()).trim() === 'ok';
    },
    async close() {
      assert.equal(await server.stop(), 0);
      for (const dir of [...sources, dataDir]) removeDir(dir);
    },
  };
}
