/**
 * Signing the command line in through OAuth's device flow (RFC 8628) and keeping it signed in:
 * discovery, the device code, polling the token endpoint (waiting on `authorization_pending`,
 * five seconds more on `slow_down`), and refreshing an expired access token with the one-time
 * refresh token. Tokens go to ~/src-config.json only, never to the terminal or a log.
 */
import { createError } from '../../errors.js';
import { configPath, readSrcConfig, writeSrcConfig, type SrcConfig } from './config-file.js';
import { normalizeEndpoint, resolveEndpoint, type RemoteEndpoint } from './endpoint.js';

/** The server's built-in public client for the command line (src-cli's id; see store/oauth-clients.ts). */
export const CLI_CLIENT_ID = 'sgo_cid_sourcegraph-cli';
const SCOPE = 'user:all offline_access';
/** Refresh a little before expiry, so a request never leaves with a token that dies on the way. */
const EXPIRY_MARGIN_MS = 30_000;

interface TokenAnswer {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_in?: number;
}

async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'quarry-cli' }, body: new URLSearchParams(form).toString() });
  const body = await response.json().catch(() => ({})) as Record<string, unknown>;
  return { status: response.status, body };
}

async function discover(endpoint: string): Promise<{ device: string; token: string }> {
  const response = await fetch(`${endpoint}/.well-known/openid-configuration`).catch((err: unknown) => {
    throw createError('REMOTE_FAILED', `cannot reach ${endpoint}: ${(err as Error).message}`);
  });
  const metadata = await response.json().catch(() => null) as Record<string, unknown> | null;
  const device = metadata?.['device_authorization_endpoint'];
  const token = metadata?.['token_endpoint'];
  if (!response.ok || typeof device !== 'string' || typeof token !== 'string') throw createError('REMOTE_FAILED', `${endpoint} does not offer the OAuth device flow (no device_authorization_endpoint in its discovery document)`);
  return { device, token };
}

function stored(endpoint: string, answer: TokenAnswer, now: number): SrcConfig {
  return {
    endpoint, accessToken: answer.access_token, clientId: CLI_CLIENT_ID,
    ...(answer.refresh_token === undefined ? {} : { refreshToken: answer.refresh_token }),
    ...(answer.expires_in === undefined ? {} : { expiresAt: now + answer.expires_in * 1000 }),
  };
}

export interface LoginOptions {
  readonly home?: string;
  /** Where to say what to open and which code to type (standard error). */
  readonly tell: (line: string) => void;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Runs the device flow against `endpoint` and stores the tokens; returns the config file's path. */
export async function deviceLogin(rawEndpoint: string, options: LoginOptions): Promise<string> {
  const endpoint = normalizeEndpoint(rawEndpoint);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const urls = await discover(endpoint);
  const started = await postForm(urls.device, { client_id: CLI_CLIENT_ID, scope: SCOPE });
  const { device_code: deviceCode, user_code: userCode, verification_uri: verification, verification_uri_complete: complete } = started.body;
  if (started.status !== 200 || typeof deviceCode !== 'string' || typeof userCode !== 'string') {
    throw createError('REMOTE_FAILED', `the device authorization failed: ${String(started.body['error_description'] ?? started.body['error'] ?? started.status)}`);
  }
  options.tell(`To sign in, open ${String(verification)} and enter the code ${userCode}`);
  if (typeof complete === 'string') options.tell(`(or open ${complete})`);
  let intervalMs = Number(started.body['interval'] ?? 5) * 1000;
  const deadline = Date.now() + Number(started.body['expires_in'] ?? 1800) * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalMs);
    const polled = await postForm(urls.token, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: CLI_CLIENT_ID });
    if (polled.status === 200 && typeof polled.body['access_token'] === 'string') {
      const path = configPath(options.home);
      writeSrcConfig(path, stored(endpoint, polled.body as unknown as TokenAnswer, Date.now()));
      return path;
    }
    const error = polled.body['error'];
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      intervalMs += 5000;
      continue;
    }
    if (error === 'access_denied') throw createError('REMOTE_FAILED', 'the sign-in was denied in the browser');
    throw createError('REMOTE_FAILED', `the sign-in failed: ${String(polled.body['error_description'] ?? error ?? polled.status)}`);
  }
  throw createError('REMOTE_FAILED', 'the code expired before it was approved; run quarry login again');
}

/**
 * The endpoint as resolveEndpoint gives it, after refreshing a `quarry login` token that expired
 * (the new pair replaces the old in the file; the old refresh token is spent). SRC_ACCESS_TOKEN wins
 * and is never refreshed.
 */
export async function freshEndpoint(env: NodeJS.ProcessEnv = process.env, home?: string): Promise<RemoteEndpoint> {
  const resolved = resolveEndpoint(env, home);
  if (env['SRC_ACCESS_TOKEN']) return resolved;
  const path = configPath(home);
  const config = readSrcConfig(path);
  if (config.refreshToken === undefined || config.expiresAt === undefined || config.expiresAt > Date.now() + EXPIRY_MARGIN_MS) return resolved;
  if (config.endpoint !== undefined && normalizeEndpoint(config.endpoint) !== resolved.url) return resolved;
  const { token } = await discover(resolved.url);
  const answer = await postForm(token, { grant_type: 'refresh_token', refresh_token: config.refreshToken, client_id: config.clientId ?? CLI_CLIENT_ID });
  if (answer.status !== 200 || typeof answer.body['access_token'] !== 'string') {
    throw createError('REMOTE_FAILED', `the saved sign-in expired and could not be refreshed (${String(answer.body['error_description'] ?? answer.body['error'] ?? answer.status)}); run quarry login again`);
  }
  const next = { ...config, ...stored(config.endpoint ?? resolved.url, answer.body as unknown as TokenAnswer, Date.now()) };
  writeSrcConfig(path, next);
  return { url: resolved.url, accessToken: next.accessToken ?? null };
}
