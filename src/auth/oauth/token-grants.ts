/**
 * The token endpoint's grants (RFC 6749 §4/§6, OAuth 2.1, RFC 8628 §3.4): authorization_code with
 * PKCE S256, refresh_token (one-time, rotating, with a reuse grace), client_credentials for an
 * admin's application acting as its service account, and device_code. Answers the token response
 * or the OAuth error; touches no HTTP.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { exchangeAuthorizationCode, pollDevice } from '../../store/oauth-codes.js';
import { grantTokens, rotateRefreshToken, type IssuedTokens, type Lifetimes } from '../../store/oauth-grants.js';
import type { OAuthClientRecord, OAuthCodeRecord, Store } from '../../store/records.js';
import { getUser } from '../../store/users.js';
import { grantedScopes } from './clients.js';
import { authenticateClient } from './client-auth.js';
import { failure, success, type OAuthResult } from './oauth-error.js';
import { audienceOf } from './resources.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface OAuthSettings {
  readonly dynamicRegistration: boolean;
  readonly accessTokenMs: number;
  readonly refreshTokenMs: number;
  readonly reuseGraceMs: number;
}

export interface TokenAnswer {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token?: string;
  readonly scope: string;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function answer(tokens: IssuedTokens, now: number): TokenAnswer {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.round((tokens.accessExpiresAt - now) / 1000)),
    ...(tokens.refreshToken === null ? {} : { refresh_token: tokens.refreshToken }),
    scope: tokens.scopes.join(' '),
  };
}

/** Constant time: both sides are SHA-256 sized. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const actual = createHash('sha256').update(verifier).digest();
  const expected = Buffer.from(challenge, 'base64url');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

export function tokenRequest(store: Store, authorization: string | undefined, form: URLSearchParams, origin: string, settings: OAuthSettings, now = Date.now()): OAuthResult<TokenAnswer> {
  const authenticated = authenticateClient(store, authorization, form, settings.dynamicRegistration);
  if (!authenticated.ok) return authenticated;
  const client = authenticated.value;
  const grantType = form.get('grant_type');
  if (grantType === null) return failure('invalid_request', 'grant_type is required');
  if (!client.grantTypes.includes(grantType)) return failure('unauthorized_client', `this client may not use the ${grantType} grant`);
  const lifetimes: Lifetimes = { accessMs: settings.accessTokenMs, refreshMs: client.grantTypes.includes('refresh_token') ? settings.refreshTokenMs : null };
  const resourceParam = form.get('resource');
  const audience = audienceOf(resourceParam, origin);
  if (audience === null) return failure('invalid_target', `resource must be this server (${origin}) or one of its MCP endpoints or GraphQL API`);
  switch (grantType) {
    case 'authorization_code':
      return codeGrant(store, client, form, resourceParam === null ? null : audience, lifetimes, now);
    case 'refresh_token': {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return failure('invalid_request', 'refresh_token is required');
      const rotated = rotateRefreshToken(store, refreshToken, client.id, lifetimes, settings.reuseGraceMs, now);
      if (!rotated.ok) return failure('invalid_grant', rotated.reason === 'replayed' ? 'this refresh token was already used; its grant is revoked, sign in again' : 'the refresh token is unknown, expired or revoked');
      return success(answer(rotated.tokens, now));
    }
    case 'client_credentials':
      return clientCredentials(store, client, form, audience, settings, now);
    case DEVICE_CODE_GRANT: {
      const deviceCode = form.get('device_code');
      if (!deviceCode) return failure('invalid_request', 'device_code is required');
      const polled = pollDevice(store, deviceCode, client.id, lifetimes, now);
      if (!polled.ok) return failure(polled.error, DEVICE_ERRORS[polled.error]);
      return success(answer(polled.tokens, now));
    }
    default:
      return failure('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  }
}

const DEVICE_ERRORS = {
  authorization_pending: 'the user has not approved the request yet; poll again after the interval',
  slow_down: 'polling too fast; wait 5 more seconds between polls',
  access_denied: 'the user denied the request',
  expired_token: 'the device code expired; start again',
  invalid_grant: 'the device code is unknown, was used, or belongs to another client',
} as const;

function codeGrant(store: Store, client: OAuthClientRecord, form: URLSearchParams, audience: string | null, lifetimes: Lifetimes, now: number): OAuthResult<TokenAnswer> {
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (!code) return failure('invalid_request', 'code is required');
  if (!verifier) return failure('invalid_request', 'code_verifier is required (PKCE)');
  const redirectUri = form.get('redirect_uri');
  const check = (record: OAuthCodeRecord): string | null => {
    if (record.clientId !== client.id) return 'the code was issued to another client';
    if (redirectUri !== null && redirectUri !== record.redirectUri) return 'redirect_uri differs from the authorization request\'s';
    if (!VERIFIER.test(verifier) || !pkceMatches(verifier, record.codeChallenge)) return 'code_verifier does not match the code_challenge';
    if (audience !== null && audience !== record.resource) return 'resource differs from the authorization request\'s';
    return null;
  };
  const exchanged = exchangeAuthorizationCode(store, code, check, lifetimes, now);
  if (exchanged.ok) return success(answer(exchanged.tokens, now));
  const description = exchanged.reason === 'reused' ? 'the code was already used; the tokens issued for it are revoked'
    : exchanged.reason === 'unknown' ? 'the code is unknown or expired' : exchanged.description!;
  return failure('invalid_grant', description);
}

function clientCredentials(store: Store, client: OAuthClientRecord, form: URLSearchParams, audience: string, settings: OAuthSettings, now: number): OAuthResult<TokenAnswer> {
  const account = client.serviceAccountId === null ? undefined : getUser(store, client.serviceAccountId);
  if (client.secretHash === null || account === undefined || !account.serviceAccount) {
    return failure('unauthorized_client', 'client_credentials needs a confidential application bound to a service account');
  }
  const scopes = grantedScopes(client, form.get('scope'));
  if (scopes === null) return failure('invalid_scope', `this client may ask for ${client.scopes.join(' ')} only`);
  const tokens = grantTokens(store, { clientId: client.id, userId: account.id, scopes, resource: audience }, { accessMs: settings.accessTokenMs, refreshMs: null }, now);
  return success(answer(tokens, now));
}
