/**
 * Who is calling the token, revocation, introspection and device endpoints: a client by
 * `Authorization: Basic` (RFC 6749 §2.3.1, form-encoded id and secret) or by `client_id` and
 * `client_secret` in the form; public clients send their id alone. Secrets are compared by hash in
 * constant time. A registered (RFC 7591) client is no client while dynamic registration is off.
 */
import { clientSecretMatches, getOAuthClient } from '../../store/oauth-clients.js';
import type { OAuthClientRecord, Store } from '../../store/records.js';
import { failure, success, type OAuthResult } from './oauth-error.js';

/** The client named `clientId`, unless it is a registered one and registration is off. */
export function usableClient(store: Store, clientId: string, dynamicRegistration: boolean): OAuthClientRecord | undefined {
  const client = getOAuthClient(store, clientId);
  return client === undefined || (client.dynamic && !dynamicRegistration) ? undefined : client;
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (header === undefined || !/^basic\s/i.test(header.trim())) return null;
  const decoded = Buffer.from(header.trim().slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return 'malformed';
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return 'malformed';
  }
}

const INVALID_CLIENT = 'client authentication failed: unknown client_id, wrong secret, or a secret missing (confidential clients) or sent (public clients)';

export function authenticateClient(store: Store, authorization: string | undefined, form: URLSearchParams, dynamicRegistration: boolean): OAuthResult<OAuthClientRecord> {
  const basic = basicCredentials(authorization);
  if (basic === 'malformed') return failure('invalid_client', 'the Basic credentials must be base64 of client_id:client_secret', 401);
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (basic !== null && (formSecret !== null || (formId !== null && formId !== basic.id))) {
    return failure('invalid_request', 'send client credentials one way only: Basic or the form', 400);
  }
  const id = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (id === null || id === '') return failure('invalid_client', 'client_id is required (in the form, or as Basic credentials)', 401);
  const client = usableClient(store, id, dynamicRegistration);
  if (client === undefined) return failure('invalid_client', INVALID_CLIENT, 401);
  if (client.secretHash === null) return secret === null ? success(client) : failure('invalid_client', INVALID_CLIENT, 401);
  return secret !== null && clientSecretMatches(client, secret) ? success(client) : failure('invalid_client', INVALID_CLIENT, 401);
}
