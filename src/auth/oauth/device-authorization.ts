/**
 * The device authorization request (RFC 8628 §3.1-3.2): a client that cannot show a browser asks
 * for a device code and a user code; the user types the code at `/device`, signed in, and approves.
 */
import { createDeviceAuthorization } from '../../store/oauth-codes.js';
import type { Store } from '../../store/records.js';
import { grantedScopes } from './clients.js';
import { authenticateClient } from './client-auth.js';
import { failure, success, type OAuthResult } from './oauth-error.js';
import { audienceOf } from './resources.js';
import { DEVICE_CODE_GRANT } from './token-grants.js';

export const DEVICE_PAGE_PATH = '/device';
const DEVICE_CODE_LIFETIME_MS = 30 * 60_000;
const POLL_INTERVAL_SECONDS = 5;

export interface DeviceAnswer {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
}

export function deviceAuthorization(store: Store, authorization: string | undefined, form: URLSearchParams, origin: string, dynamicRegistration: boolean): OAuthResult<DeviceAnswer> {
  const authenticated = authenticateClient(store, authorization, form, dynamicRegistration);
  if (!authenticated.ok) return authenticated;
  const client = authenticated.value;
  if (!client.grantTypes.includes(DEVICE_CODE_GRANT)) return failure('unauthorized_client', 'this client may not use the device flow');
  const scopes = grantedScopes(client, form.get('scope'));
  if (scopes === null) return failure('invalid_scope', `this client may ask for ${client.scopes.join(' ')} only`);
  const resource = audienceOf(form.get('resource'), origin);
  if (resource === null) return failure('invalid_target', `resource must be this server (${origin}) or one of its MCP endpoints or GraphQL API`);
  const { deviceCode, userCode } = createDeviceAuthorization(store, { clientId: client.id, scopes, resource }, DEVICE_CODE_LIFETIME_MS, POLL_INTERVAL_SECONDS);
  const page = `${origin}${DEVICE_PAGE_PATH}`;
  return success({
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: page,
    verification_uri_complete: `${page}?user_code=${encodeURIComponent(userCode)}`,
    expires_in: DEVICE_CODE_LIFETIME_MS / 1000,
    interval: POLL_INTERVAL_SECONDS,
  });
}
