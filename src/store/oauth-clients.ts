/**
 * OAuth clients: registered by anyone through RFC 7591 (public or confidential, scope `mcp` only),
 * described by a client ID metadata document (stored under its URL), or made by an admin. Client secrets are shown once and kept only as SHA-256; checking one compares
 * hashes in constant time. Deleting a client deletes its consents and revokes its grants. One
 * client is built in and never stored: the command line's (BUILTIN_CLI_CLIENT).
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createError } from '../errors.js';
import { bumpGeneration } from './generation.js';
import type { OAuthClientRecord, Store } from './records.js';

export type NewOAuthClient = Omit<OAuthClientRecord, 'id' | 'secretHash' | 'createdAt'> & { readonly confidential: boolean };

export function hashOAuthSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Stores the client; returns it with the only plain copy of its secret (null for public clients). */
export function createOAuthClient(store: Store, input: NewOAuthClient): { client: OAuthClientRecord; secret: string | null } {
  const { confidential, ...fields } = input;
  const secret = confidential ? `sgo_cs_${randomBytes(32).toString('hex')}` : null;
  const client: OAuthClientRecord = {
    ...fields,
    id: `sgo_cid_${randomBytes(16).toString('hex')}`,
    secretHash: secret === null ? null : hashOAuthSecret(secret),
    createdAt: new Date().toISOString(),
  };
  store.oauthClients.putSync(client.id, client);
  return { client, secret };
}

/**
 * The public client `quarry login` (and src-cli's `src login`, whose built-in id this is) signs in
 * with through the device flow. Built in rather than registered per login: dynamic registration
 * may be off on a locked-down instance and may only grant `mcp`, while the command line needs
 * `user:all`; and an operator's application list stays free of one entry per laptop. Its grants
 * still show, and are revoked, per user under Authorized applications.
 */
export const BUILTIN_CLI_CLIENT: OAuthClientRecord = {
  id: 'sgo_cid_sourcegraph-cli',
  name: 'Quarry command line (quarry login, src login)',
  secretHash: null,
  redirectUris: [],
  scopes: ['user:all'],
  grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
  tokenEndpointAuthMethod: 'none',
  dynamic: false,
  serviceAccountId: null,
  metadata: {},
  createdAt: new Date(0).toISOString(),
};

/** Stores or replaces a client described by its metadata document (its id is the document's URL), keeping when it was first seen. */
export function saveMetadataDocumentClient(store: Store, client: OAuthClientRecord): void {
  store.root.transactionSync(() => {
    const before = store.oauthClients.get(client.id);
    store.oauthClients.putSync(client.id, before === undefined ? client : { ...client, createdAt: before.createdAt });
  });
}

export function getOAuthClient(store: Store, clientId: string): OAuthClientRecord | undefined {
  if (clientId === BUILTIN_CLI_CLIENT.id) return BUILTIN_CLI_CLIENT;
  return clientId.length > 0 && clientId.length <= 200 ? store.oauthClients.get(clientId) : undefined;
}

export function listOAuthClients(store: Store): OAuthClientRecord[] {
  return Array.from(store.oauthClients.getRange(), ({ value }) => value);
}

/** True when `secret` is the client's; public clients have no secret to match. */
export function clientSecretMatches(client: OAuthClientRecord, secret: string): boolean {
  if (client.secretHash === null) return false;
  return timingSafeEqual(Buffer.from(hashOAuthSecret(secret), 'hex'), Buffer.from(client.secretHash, 'hex'));
}

/** Deletes the client with its consents and grant families; its tokens stop working on the next request. */
export function deleteOAuthClient(store: Store, clientId: string): OAuthClientRecord {
  return store.root.transactionSync(() => {
    const client = store.oauthClients.get(clientId);
    if (client === undefined) throw createError('INVALID_ARGUMENT', `no OAuth application with client id ${clientId}`, { clientId });
    for (const { key, value } of store.oauthFamilies.getRange()) if (value.clientId === clientId) store.oauthFamilies.removeSync(key);
    for (const { key } of store.oauthConsents.getRange()) if (key.endsWith(`:${clientId}`)) store.oauthConsents.removeSync(key);
    store.oauthClients.removeSync(clientId);
    bumpGeneration(store);
    return client;
  });
}
