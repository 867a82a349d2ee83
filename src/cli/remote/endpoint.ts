/**
 * Where a remote Quarry (or Sourcegraph) lives and how to authenticate, resolved as src-cli does
 * (reference §6.1): SRC_ENDPOINT and SRC_ACCESS_TOKEN override ~/src-config.json
 * (`endpoint`, `accessToken`); the endpoint defaults to http://127.0.0.1:7080.
 */
import { homedir } from 'node:os';
import { createError } from '../../errors.js';
import { configPath, readSrcConfig } from './config-file.js';

export interface RemoteEndpoint {
  /** Without a trailing slash. */
  readonly url: string;
  readonly accessToken: string | null;
}

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:7080';

export function resolveEndpoint(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): RemoteEndpoint {
  const file = readSrcConfig(configPath(home));
  const url = env['SRC_ENDPOINT'] || file.endpoint || DEFAULT_ENDPOINT;
  return { url: normalizeEndpoint(url), accessToken: env['SRC_ACCESS_TOKEN'] || file.accessToken || null };
}

/** True when the environment or ~/src-config.json names a remote endpoint. */
export function endpointConfigured(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): boolean {
  return Boolean(env['SRC_ENDPOINT'] || readSrcConfig(configPath(home)).endpoint);
}

export function normalizeEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw createError('USAGE', `invalid endpoint ${JSON.stringify(raw)}: must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw createError('USAGE', `invalid endpoint ${JSON.stringify(raw)}: must be an http or https URL`);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}
