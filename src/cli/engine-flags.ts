/**
 * Flags shared by commands that open the engine (--data, --threads, --max-file-size, --matcher),
 * turned into a Config.
 */
import { loadConfig, positiveInt, type Config } from '../config.js';
import { DATA_FLAG } from './data-dir.js';

export const ENGINE_FLAGS = { ...DATA_FLAG, threads: 'string', 'max-file-size': 'string', matcher: 'string' } as const;

export const ENGINE_FLAGS_USAGE = `  --data DIR             data directory (env QUARRY_DATA, default ./data)
  --threads N            worker threads (env QUARRY_THREADS, default: one per core)
  --max-file-size BYTES  skip larger files (env QUARRY_MAX_FILE_SIZE, default 1048576)
  --matcher ENGINE       auto, hyperscan or js (env QUARRY_MATCHER, default auto)`;

export function engineConfig(flags: { data?: string; threads?: string; 'max-file-size'?: string; matcher?: string }): Config {
  const threads = positiveInt('--threads', flags.threads);
  const maxFileSize = positiveInt('--max-file-size', flags['max-file-size']);
  return loadConfig({
    ...(flags.data !== undefined ? { dataDir: flags.data } : {}),
    ...(threads !== undefined ? { threads } : {}),
    ...(maxFileSize !== undefined ? { maxFileSize } : {}),
    ...(flags.matcher !== undefined ? { matcher: flags.matcher } : {}),
  });
}
