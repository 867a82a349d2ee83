/**
 * Where Quarry keeps its data: `--data DIR`, else `$QUARRY_DATA`, else `./data`, as an absolute path.
 * Resolves the path only; creating the directory is the store's business.
 */

import { resolve } from 'node:path';
import { usageError } from './command.js';

/** The flag every command that touches data accepts; spread it into a command's FlagSpec. */
export const DATA_FLAG = { data: 'string' } as const;

const DEFAULT_DATA_DIR = './data';

export function resolveDataDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string {
  if (flag !== undefined && flag.trim() === '') throw usageError('--data needs a directory');
  const fromEnv = env['QUARRY_DATA'];
  const chosen = flag ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : DEFAULT_DATA_DIR);
  return resolve(cwd, chosen);
}
