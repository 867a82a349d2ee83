/**
 * A real `quarry serve` process on a loopback port over a real data directory, for end-to-end
 * tests: started as a user would start it, its URL and first admin token read from its output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/quarry.js', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  /** Printed once by the first start on an empty data directory; null afterwards. */
  readonly adminToken: string | null;
  readonly child: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `bin`: another checkout's bin/quarry.js (a benchmark comparing two builds). */
export async function startServerProcess(dataDir: string, extraArgs: readonly string[] = [], env: NodeJS.ProcessEnv = process.env, bin: string = BIN): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--listen', '127.0.0.1:0', '--data', dataDir, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`quarry serve did not start: ${output}${errors}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`quarry serve exited with ${code}: ${output}${errors}`));
    });
  });
  const token = /\n\s+(sgp_\S+)/.exec(output)?.[1] ?? null;
  return {
    url,
    adminToken: token,
    child,
    output: () => output + errors,
    stop: () => new Promise((resolve) => {
      // A process already ended (by a signal too, as a test's kill -9) has nothing left to stop.
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    }),
  };
}
