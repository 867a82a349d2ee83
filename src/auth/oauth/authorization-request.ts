/**
 * Checks an authorization request (OAuth 2.1 §4.1.1 with PKCE S256 only, RFC 8707 `resource`):
 * the client and its redirect URI first, whose failures are shown and never redirected (no open
 * redirect), then everything else, whose failures go back to the client's redirect URI. Pure but
 * for reading the client.
 */
import type { OAuthClientRecord, Store } from '../../store/records.js';
import { chooseRedirectUri, grantedScopes } from './clients.js';
import { usableClient } from './client-auth.js';
import { audienceOf } from './resources.js';

export interface AuthorizationRequest {
  readonly client: OAuthClientRecord;
  readonly redirectUri: string;
  readonly state: string | null;
  readonly scopes: readonly string[];
  /** The audience path the token will be bound to. */
  readonly resource: string;
  readonly codeChallenge: string;
  /** `prompt=consent`: ask even when the user allowed this before. */
  readonly promptConsent: boolean;
}

export type AuthorizationCheck =
  | { readonly kind: 'ok'; readonly request: AuthorizationRequest }
  /** Shown to the user: the redirect URI cannot be trusted with the answer. */
  | { readonly kind: 'show'; readonly message: string }
  | { readonly kind: 'redirect'; readonly location: string };

/** The parameters an authorization request carries, as the consent form posts them back. */
export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'prompt'] as const;

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** `redirectUri` with the answer's parameters added to its query, `iss` (RFC 9207) included. */
export function redirectLocation(redirectUri: string, issuer: string, answer: Readonly<Record<string, string | null>>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(answer)) if (value !== null) url.searchParams.set(key, value);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

export function checkAuthorizationRequest(store: Store, params: URLSearchParams, issuer: string, dynamicRegistration: boolean): AuthorizationCheck {
  const single = (name: string): string | null | undefined => {
    const values = params.getAll(name);
    return values.length > 1 ? undefined : (values[0] ?? null);
  };
  const clientId = single('client_id');
  if (!clientId) return { kind: 'show', message: 'The request names no client (client_id), or names it twice.' };
  const client = usableClient(store, clientId, dynamicRegistration);
  if (client === undefined) return { kind: 'show', message: 'The application that sent you here is not registered with this server (unknown client_id).' };
  const given = single('redirect_uri');
  if (given === undefined) return { kind: 'show', message: 'The request names redirect_uri twice.' };
  const redirectUri = chooseRedirectUri(client, given);
  if (redirectUri === null) return { kind: 'show', message: 'The redirect_uri is not one this application registered, so you are not sent back to it.' };
  const state = single('state') ?? null;
  const back = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect', location: redirectLocation(redirectUri, issuer, { error, error_description: description, state }),
  });
  for (const name of AUTHORIZATION_PARAMS) if (single(name) === undefined) return back('invalid_request', `${name} is given more than once`);
  if (single('response_type') !== 'code') return back('unsupported_response_type', 'response_type must be "code"');
  if (!client.grantTypes.includes('authorization_code')) return back('unauthorized_client', 'this client may not use the authorization_code grant');
  const challenge = single('code_challenge');
  if (!challenge) return back('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  if (single('code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  if (!CHALLENGE.test(challenge)) return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
  const scopes = grantedScopes(client, single('scope') ?? null);
  if (scopes === null) return back('invalid_scope', `this client may ask for ${client.scopes.join(' ')} only`);
  const resource = audienceOf(single('resource') ?? null, issuer);
  if (resource === null) return back('invalid_target', `resource must be this server (${issuer}) or one of its MCP endpoints or GraphQL API`);
  return { kind: 'ok', request: { client, redirectUri, state, scopes, resource, codeChallenge: challenge, promptConsent: single('prompt') === 'consent' } };
}
