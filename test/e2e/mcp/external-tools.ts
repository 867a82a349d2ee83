/**
 * The external MCP tools our end-to-end tests drive, pinned to exact versions in this one place,
 * and how to run them (devDependencies from node_modules/.bin, the rest through npx): bounded in
 * time, in their own process group, with their state files kept in a temp dir instead of the
 * user's home. Never skips: a tool that cannot be fetched or is installed at another version fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir } from '../../git/fixtures.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The conformance CLI needs Node 22 (fs.globSync); npm serves a Node 22 runtime as a package. */
export const CONFORMANCE = { packages: ['node@22.23.3', '@modelcontextprotocol/conformance@0.1.16'], bin: 'conformance' } as const;
/** The `authorization` command (checks an authorization server) exists only in the 0.2.0-alpha line. */
export const CONFORMANCE_AUTHORIZATION = { packages: ['node@22.23.3', '@modelcontextprotocol/conformance@0.2.0-alpha.12'], bin: 'conformance' } as const;
/** devDependencies at these exact versions (package.json): nothing is downloaded when the tests run. */
export const INSPECTOR = { packages: ['@modelcontextprotocol/inspector@2.12.0'], bin: 'mcp-inspector', installed: true } as const;
export const MCP_REMOTE_CLIENT = { packages: ['mcp-remote@0.15.1'], bin: 'mcp-remote-client', installed: true } as const;
export const MCP_REMOTE_PROXY = { packages: ['mcp-remote@0.15.1'], bin: 'mcp-remote', installed: true } as const;

export interface ExternalTool {
  readonly packages: readonly string[];
  readonly bin: string;
  /** A devDependency: run from node_modules/.bin instead of through npx. */
  readonly installed?: boolean;
}

export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The first run downloads the packages (Node 22 alone is ~30 MB): allow for a slow registry. */
export const FETCH_TIMEOUT_MS = 5 * 60_000;

const running = new Set<ChildProcess>();
let stateDir: string | null = null;

/** The path of an installed tool's executable, for callers that spawn it themselves. */
export function installedBin(tool: ExternalTool): string {
  return join(ROOT, 'node_modules', '.bin', tool.bin);
}

/** Throws unless node_modules holds the pinned version of each of the tool's packages. */
function checkInstalledVersion(tool: ExternalTool): void {
  for (const pinned of tool.packages) {
    const at = pinned.lastIndexOf('@');
    const name = pinned.slice(0, at);
    const installed = (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    if (installed !== pinned.slice(at + 1)) throw new Error(`node_modules holds ${name}@${installed}, the tests pin ${pinned}: run npm ci`);
  }
}

/** State the tools would otherwise write under ~/.mcp-inspector and ~/.mcp-auth. */
function toolEnv(): NodeJS.ProcessEnv {
  stateDir ??= makeTempDir('quarry-mcp-tools');
  return {
    ...process.env,
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    MCP_STORAGE_DIR: join(stateDir, 'inspector-storage'),
    MCP_CATALOG_PATH: join(stateDir, 'inspector-catalog.json'),
    MCP_CLIENT_CONFIG_PATH: join(stateDir, 'inspector-client.json'),
    MCP_INSPECTOR_OAUTH_STATE_PATH: join(stateDir, 'inspector-oauth.json'),
    MCP_REMOTE_CONFIG_DIR: join(stateDir, 'mcp-remote'),
  };
}

function label(tool: ExternalTool): string {
  return `${tool.packages.join(' + ')} (${tool.bin})`;
}

/** Starts the tool with stdin, stdout and stderr piped; stopAllTools() ends it if the test does not. */
export function startTool(tool: ExternalTool, args: readonly string[]): ChildProcess {
  const npxArgs = ['-y', ...tool.packages.flatMap((p) => ['-p', p]), '--', tool.bin, ...args];
  const [command, commandArgs] = tool.installed === true ? [installedBin(tool), args] : ['npx', npxArgs];
  // Detached: npx runs the tool in a grandchild process, so only killing the group stops it all.
  const child = spawn(command, commandArgs, { env: toolEnv(), stdio: 'pipe', detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** Runs the tool to its end; rejects with its output if it outlives timeoutMs. */
export function runTool(tool: ExternalTool, args: readonly string[], timeoutMs: number, input?: string): Promise<ToolRun> {
  const child = startTool(tool, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (input !== undefined) child.stdin!.end(input);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${label(tool)} ${args.join(' ')} ran over ${timeoutMs} ms.\nstdout: ${tail(stdout)}\nstderr: ${tail(stderr)}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start npx for ${label(tool)}: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs a harmless command of the tool once so that npx downloads it (an installed tool: after
 * checking its version), separately from the timed calls of the tests; throws with npm's own words
 * when the registry cannot supply it.
 */
export async function fetchTool(tool: ExternalTool, probeArgs: readonly string[]): Promise<void> {
  if (tool.installed === true) checkInstalledVersion(tool);
  const run = await runTool(tool, probeArgs, FETCH_TIMEOUT_MS);
  if (run.code !== 0) throw new Error(`npx could not fetch or run ${label(tool)}: exit ${run.code}\n${tail(run.stderr)}`);
}

/** Kills every tool still running and removes the tools' state dir. */
export function stopAllTools(): void {
  for (const child of running) killGroup(child);
  running.clear();
  if (stateDir !== null) removeDir(stateDir);
  stateDir = null;
}

/** The end of a long output, without npm's config warnings, for error messages. */
export function tail(text: string, chars = 4000): string {
  const cleaned = text.split('\n').filter((line) => !line.startsWith('npm warn')).join('\n');
  return cleaned.length <= chars ? cleaned : `…${cleaned.slice(-chars)}`;
}
