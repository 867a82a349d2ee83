/**
 * Dynamic client registration (RFC 7591): checks a registration request and makes the client it
 * asks for: public (`none`) or confidential, scope `mcp` only, redirect URIs as clients.ts allows.
 * The answer echoes the registered metadata, which the MCP SDK requires.
 */
import { createOAuthClient } from '../../store/oauth-clients.js';
import type { OAuthClientRecord, Store } from '../../store/records.js';
import { IDENTITY_SCOPES, redirectUriProblem } from './clients.js';
import { failure, success, type OAuthResult } from './oauth-error.js';

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'] as const;
const ECHOED = ['client_uri', 'logo_uri', 'contacts', 'tos_uri', 'policy_uri', 'software_id', 'software_version'] as const;
const MAX_REDIRECT_URIS = 10;
const MAX_TEXT = 2000;

type Json = Record<string, unknown>;

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The registration answer (201): the client's id, its secret once, and its metadata. */
export function registrationAnswer(client: OAuthClientRecord, secret: string | null): Json {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    scope: client.scopes.join(' '),
    ...client.metadata,
  };
}

export function registerClient(store: Store, body: unknown): OAuthResult<Json> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return failure('invalid_client_metadata', 'the body must be a JSON object of client metadata (RFC 7591)');
  const request = body as Json;
  if (request['software_statement'] !== undefined) return failure('unapproved_software_statement', 'software statements are not accepted; register without one');
  const method = request['token_endpoint_auth_method'] ?? 'client_secret_basic';
  if (!(AUTH_METHODS as readonly unknown[]).includes(method)) return failure('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grantTypes = request['grant_types'] ?? ['authorization_code'];
  if (!strings(grantTypes) || grantTypes.length === 0 || grantTypes.some((g) => !(GRANT_TYPES as readonly string[]).includes(g))) {
    return failure('invalid_client_metadata', `grant_types must be a list of ${GRANT_TYPES.join(', ')} (client_credentials is for applications an admin creates)`);
  }
  const responseTypes = request['response_types'] ?? ['code'];
  if (!strings(responseTypes) || responseTypes.some((r) => r !== 'code')) return failure('invalid_client_metadata', 'response_types may only hold "code"');
  const redirectUris = request['redirect_uris'] ?? [];
  if (!strings(redirectUris)) return failure('invalid_redirect_uri', 'redirect_uris must be a list of URIs');
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) return failure('invalid_redirect_uri', 'redirect_uris is required for the authorization_code grant');
  if (redirectUris.length > MAX_REDIRECT_URIS) return failure('invalid_redirect_uri', `at most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return failure('invalid_redirect_uri', problem);
  }
  // Identity scopes such as offline_access (mcp-remote asks for it) grant nothing here, so they are accepted and not echoed.
  const scope = request['scope'];
  if (scope !== undefined && (typeof scope !== 'string' || scope.split(' ').filter(Boolean).some((s) => s !== 'mcp' && !(IDENTITY_SCOPES as readonly string[]).includes(s)))) {
    return failure('invalid_client_metadata', `registered clients may only have the scope "mcp" (and ${IDENTITY_SCOPES.join(', ')}, which grant nothing more)`);
  }
  const name = request['client_name'] ?? 'Unnamed MCP client';
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) return failure('invalid_client_metadata', 'client_name must be a non-empty string of at most 200 characters');
  const metadata: Json = {};
  for (const key of ECHOED) {
    const value = request[key];
    if (value === undefined) continue;
    if (JSON.stringify(value).length > MAX_TEXT) return failure('invalid_client_metadata', `${key} is too long`);
    metadata[key] = value;
  }
  const { client, secret } = createOAuthClient(store, {
    name: name.trim(), redirectUris, scopes: ['mcp'], grantTypes, tokenEndpointAuthMethod: method as OAuthClientRecord['tokenEndpointAuthMethod'],
    dynamic: true, serviceAccountId: null, metadata, confidential: method !== 'none',
  });
  return success(registrationAnswer(client, secret));
}
