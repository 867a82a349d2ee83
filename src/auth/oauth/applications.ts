/**
 * OAuth applications an admin makes (any of the scopes `user:all` and `mcp`, public or
 * confidential, redirect URIs checked as for registration) and the applications a person
 * authorized, over the store. The secret of a confidential application is returned once and
 * stored only as its SHA-256.
 */
import { createError } from '../../errors.js';
import type { AuthorizedApplicationInfo, NewOAuthApplication, OAuthApplicationInfo, OAuthApplicationService } from '../../model/oauth-apps.js';
import { createOAuthClient, deleteOAuthClient, getOAuthClient, listOAuthClients } from '../../store/oauth-clients.js';
import { authorizedClientsOf, revokeGrantsOf } from '../../store/oauth-grants.js';
import type { OAuthClientRecord, Store } from '../../store/records.js';
import { RESOURCE_SCOPES, redirectUriProblem } from './clients.js';
import { DEVICE_CODE_GRANT } from './token-grants.js';

const MAX_NAME = 200;
const MAX_REDIRECT_URIS = 10;

function info(client: OAuthClientRecord): OAuthApplicationInfo {
  return {
    clientId: client.id, name: client.name, redirectUris: client.redirectUris, scopes: client.scopes,
    confidential: client.secretHash !== null, dynamic: client.dynamic, createdAt: client.createdAt,
  };
}

/** The application as asked, or INVALID_ARGUMENT naming what to change. */
export function checkNewApplication(input: NewOAuthApplication): NewOAuthApplication {
  const name = input.name.trim();
  if (name === '' || name.length > MAX_NAME) throw createError('INVALID_ARGUMENT', `the application needs a name of 1 to ${MAX_NAME} characters`);
  const scopes = [...new Set(input.scopes)].sort();
  const unknown = scopes.find((s) => !(RESOURCE_SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown !== undefined) throw createError('INVALID_ARGUMENT', `scopes must be ${RESOURCE_SCOPES.join(' and/or ')}${unknown === undefined ? '' : ` (not "${unknown}")`}`);
  const redirectUris = [...new Set(input.redirectUris.map((u) => u.trim()).filter((u) => u !== ''))];
  if (redirectUris.length > MAX_REDIRECT_URIS) throw createError('INVALID_ARGUMENT', `at most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) throw createError('INVALID_ARGUMENT', problem);
  }
  return { name, scopes, redirectUris, confidential: input.confidential };
}

export function createOAuthApplicationService(store: Store): OAuthApplicationService {
  return {
    list: () => listOAuthClients(store).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(info),
    get: (clientId) => {
      const client = store.oauthClients.get(clientId);
      return client === undefined ? null : info(client);
    },
    create(input) {
      const checked = checkNewApplication(input);
      // No redirect URI: the application signs in through the device flow only.
      const grantTypes = [...(checked.redirectUris.length > 0 ? ['authorization_code'] : []), 'refresh_token', DEVICE_CODE_GRANT];
      const { client, secret } = createOAuthClient(store, {
        name: checked.name, redirectUris: checked.redirectUris, scopes: checked.scopes, grantTypes,
        tokenEndpointAuthMethod: checked.confidential ? 'client_secret_basic' : 'none',
        dynamic: false, serviceAccountId: null, metadata: {}, confidential: checked.confidential,
      });
      return { application: info(client), secret };
    },
    delete: (clientId) => info(deleteOAuthClient(store, clientId)),
    authorizedBy(userId): AuthorizedApplicationInfo[] {
      return authorizedClientsOf(store, userId).map((grant) => ({
        clientId: grant.clientId,
        name: getOAuthClient(store, grant.clientId)?.name ?? grant.clientId,
        lastGrantedAt: new Date(grant.lastGrantedAt).toISOString(),
        grants: grant.grants,
      }));
    },
    revokeFor: (userId, clientId) => revokeGrantsOf(store, userId, clientId),
  };
}
