/**
 * The one way Quarry runs the git CLI: spawned without a shell, bounded in time and output,
 * never prompting, paths read literally. Failures become QuarryError 'GIT_FAILED' carrying git's
 * own complaint, which may name the data directory: it is for the log, never for a remote caller.
 */

import { spawn } from 'node:child_process';
import { createError, type QuarryError } from '../errors.js';

export interface GitRunOptions {
  readonly cwd?: string;
  /** Passed as `--git-dir`, so git never searches upward for a repository. */
  readonly gitDir?: string;
  readonly timeoutMs?: number;
  /** Cap on stdout; the process is killed once it is exceeded. */
  readonly maxBytes?: number;
  readonly input?: string | Buffer;
  readonly env?: Readonly<Record<string, string>>;
}

export interface GitResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

const DEFAULT_GIT_TIMEOUT_MS = 60_000;
const DEFAULT_GIT_MAX_BYTES = 64 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

/** Variables that would point git at some other repository than the one we name (`git rev-parse --local-env-vars`). */
const REPOSITORY_ENV_VARS = [
  'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_CONFIG', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_IMPLICIT_WORK_TREE', 'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE', 'GIT_NO_REPLACE_OBJECTS', 'GIT_REPLACE_REF_BASE', 'GIT_PREFIX', 'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE', 'GIT_COMMON_DIR',
];

/**
 * The environment every git child gets: no terminal or ssh prompts, stable messages, no inherited
 * repository, and literal pathspecs: a path is only ever a path, never `:(glob)`, `:/` or `*` magic.
 */
export function gitEnvironment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const name of REPOSITORY_ENV_VARS) delete inherited[name];
  return {
    ...inherited,
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: process.env['GIT_SSH_COMMAND'] ?? 'ssh -o BatchMode=yes',
    LC_ALL: 'C',
    GIT_LITERAL_PATHSPECS: '1',
    ...extra,
  };
}

export function gitArgs(args: readonly string[], gitDir?: string): string[] {
  return gitDir === undefined ? [...args] : [`--git-dir=${gitDir}`, ...args];
}

/** The line of git's stderr that says what went wrong: the first fatal/error line, else the first line. */
export function firstErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? '';
}

/** The git subcommand in an argument list, skipping global options such as `-c key=value`. */
function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return 'command';
}

export function gitFailure(args: readonly string[], reason: string, details: Record<string, unknown> = {}): QuarryError {
  const command = subcommandOf(args);
  return createError('GIT_FAILED', `git ${command} failed: ${reason}`, { args: [...args], reason, ...details });
}

/** Runs git and reports the exit code instead of throwing on a non-zero one. */
export function execGit(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_GIT_MAX_BYTES;
  const fullArgs = gitArgs(args, options.gitDir);
  return new Promise((resolve, reject) => {
    const child = spawn('git', fullArgs, {
      cwd: options.cwd,
      env: gitEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;

    // Settles at once rather than on 'close': a killed git's own children may hold the pipes open.
    const fail = (err: QuarryError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(gitFailure(args, `timed out after ${timeoutMs} ms`, { timedOut: true })), timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxBytes) fail(gitFailure(args, `output exceeds ${maxBytes} bytes`, { maxBytes }));
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString('utf8');
    });
    // git may exit before reading all its input; the exit code is what matters then.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);

    child.on('error', (err) => fail(gitFailure(args, err.message)));
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks, stdoutBytes), stderr });
    });
  });
}

/** The stdout of a finished git run; any non-zero exit is a GIT_FAILED error. */
export function expectSuccess(args: readonly string[], result: GitResult): Buffer {
  if (result.code !== 0) {
    const reason = firstErrorLine(result.stderr) || `exit code ${String(result.code)}`;
    throw gitFailure(args, reason, { exitCode: result.code });
  }
  return result.stdout;
}

/** Runs git and returns its stdout; any non-zero exit is a GIT_FAILED error. */
export async function runGit(args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  return expectSuccess(args, await execGit(args, options));
}
