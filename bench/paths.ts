/**
 * Where the benchmark finds the repository's own files once compiled to dist/bench/.
 * Paths only; nothing here reads or writes them.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The checkout root: dist/bench/paths.js sits two levels below it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const QUARRY_BIN = join(REPO_ROOT, 'bin', 'quarry.js');
