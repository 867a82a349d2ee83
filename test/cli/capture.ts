/**
 * A CliIO that records what a command printed, for asserting on `main([...])` runs in-process.
 */

import type { CliIO } from '../../src/cli/command.js';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string[];
  readonly stderr: string[];
}

export async function runCli(argv: string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIO = { out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
