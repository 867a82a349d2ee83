/**
 * Token introspection (RFC 7662) and revocation (RFC 7009) for an authenticated client: a client
 * learns about and revokes its own tokens only; any other token is inactive to it, and revoking an
 * unknown token succeeds, as the RFC asks.
 */
import { findOAuthToken, revokeOAuthToken } from '../../store/oauth-grants.js';
import type { Store } from '../../store/records.js';
import { getUser } from '../../store/users.js';
import { authenticateClient } from './client-auth.js';
import { failure, success, type OAuthResult } from './oauth-error.js';
import { resourceUrl } from './resources.js';

export function introspect(store: Store, authorization: string | undefined, form: URLSearchParams, origin: string, dynamicRegistration: boolean): OAuthResult<Record<string, unknown>> {
  const authenticated = authenticateClient(store, authorization, form, dynamicRegistration);
  if (!authenticated.ok) return authenticated;
  const token = form.get('token') ?? '';
  const hint = form.get('token_type_hint');
  const kinds = hint === 'refresh_token' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const);
  for (const kind of kinds) {
    const found = findOAuthToken(store, token, kind);
    if (found === undefined || found.record.clientId !== authenticated.value.id) continue;
    const { record } = found;
    return success({
      active: true,
      scope: record.scopes.join(' '),
      client_id: record.clientId,
      username: getUser(store, record.userId)?.username,
      sub: String(record.userId),
      token_type: kind === 'access' ? 'Bearer' : 'refresh_token',
      exp: Math.floor(record.expiresAt / 1000),
      iat: Math.floor(record.issuedAt / 1000),
      aud: resourceUrl(origin, record.resource),
      iss: origin,
    });
  }
  return success({ active: false });
}

export function revoke(store: Store, authorization: string | undefined, form: URLSearchParams, dynamicRegistration: boolean): OAuthResult<null> {
  const authenticated = authenticateClient(store, authorization, form, dynamicRegistration);
  if (!authenticated.ok) return authenticated;
  const token = form.get('token');
  if (token === null || token === '') return failure('invalid_request', 'token is required');
  if (token.length <= 200) revokeOAuthToken(store, token, authenticated.value.id);
  return success(null);
}
