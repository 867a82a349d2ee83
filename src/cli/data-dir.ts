/**
 * The `--data DIR` flag every command that touches data accepts; resolving it (flag, then
 * $QUARRY_DATA, then ./data) is config.ts's job, like every other setting.
 */

export { resolveDataDir } from '../config.js';

/** Spread into a command's FlagSpec. */
export const DATA_FLAG = { data: 'string' } as const;
