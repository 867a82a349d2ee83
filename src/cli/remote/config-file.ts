/**
 * ~/src-config.json as src-cli reads it (`endpoint`, `accessToken`), plus what `quarry login`
 * needs to refresh an OAuth sign-in (`refreshToken`, `expiresAt`, `clientId`). Written with mode
 * 0600 through a temporary file and a rename, so no other user ever reads a token and a crash
 * never leaves half a file.
 */
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createError } from '../../errors.js';

export interface SrcConfig {
  readonly endpoint?: string;
  readonly accessToken?: string;
  /** Set by `quarry login`: the OAuth refresh token, the access token's expiry (epoch ms) and the client it was issued to. */
  readonly refreshToken?: string;
  readonly expiresAt?: number;
  readonly clientId?: string;
}

export function configPath(home: string = homedir()): string {
  return join(home, 'src-config.json');
}

export function readSrcConfig(path: string): SrcConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw createError('USAGE', `${path} is not valid JSON: ${(err as Error).message}`);
  }
  const text_ = (key: string) => (typeof parsed[key] === 'string' ? { [key]: parsed[key] as string } : {});
  return {
    ...text_('endpoint'), ...text_('accessToken'), ...text_('refreshToken'), ...text_('clientId'),
    ...(typeof parsed['expiresAt'] === 'number' ? { expiresAt: parsed['expiresAt'] } : {}),
  };
}

export function writeSrcConfig(path: string, config: SrcConfig): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
