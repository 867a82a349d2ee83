/**
 * Client ID Metadata Documents (MCP 2025-11-25, draft-ietf-oauth-client-id-metadata-document): a
 * client whose client_id is an https URL describes itself in the JSON document at that URL. The
 * document is fetched (metadata-document-fetch.ts), checked (client_id equal to the URL, redirect
 * URIs as for registration, public clients only, scope `mcp`) and kept in the store as a
 * self-registered client until its HTTP cache lifetime ends.
 */
import { getOAuthClient, saveMetadataDocumentClient } from '../../store/oauth-clients.js';
import type { OAuthClientRecord, Store } from '../../store/records.js';
import { IDENTITY_SCOPES, redirectUriProblem } from './clients.js';
import { fetchMetadataDocument, type FetchPolicy } from './metadata-document-fetch.js';

/** The draft's recommended bound on a document; and how long the fetch may take. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
export const DOCUMENT_TIMEOUT_MS = 5_000;
/** The store's bound on a client id (and an LMDB key). */
const MAX_URL_LENGTH = 200;
const MAX_REDIRECT_URIS = 10;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const ECHOED = ['client_uri', 'logo_uri', 'contacts', 'tos_uri', 'policy_uri', 'software_id', 'software_version'] as const;

/** Whether a client_id asks to be read as a metadata document URL (metadataDocumentUrlProblem then says whether it may be one). */
export function looksLikeUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Why this client_id cannot be a metadata document URL, or null. */
export function metadataDocumentUrlProblem(clientId: string): string | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'the client_id is not a valid URL';
  }
  if (url.protocol !== 'https:') return 'a client_id URL must use https';
  if (clientId.length > MAX_URL_LENGTH) return `a client_id URL may have at most ${MAX_URL_LENGTH} characters`;
  if (url.pathname === '/' || url.hash !== '' || clientId.includes('#') || url.username !== '' || url.password !== '') {
    return 'a client_id URL needs a path and no fragment or credentials';
  }
  // The draft compares client ids as strings: only the canonical spelling (no dot segments, lowercase host) is one.
  if (url.href !== clientId) return `a client_id URL must be written in its canonical form (${url.href})`;
  return null;
}

type Json = Record<string, unknown>;
const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The client a fetched document describes, or why it is refused. */
export function clientFromDocument(clientId: string, body: string, now: number, maxAgeSeconds: number): OAuthClientRecord | string {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return 'it is not JSON';
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return 'it is not a JSON object';
  const fields = document as Json;
  if (fields['client_id'] !== clientId) return `its client_id ${JSON.stringify(fields['client_id'])} is not the URL it was fetched from`;
  if (fields['client_secret'] !== undefined || fields['client_secret_expires_at'] !== undefined) return 'it holds a client_secret, which a public document must not';
  const method = fields['token_endpoint_auth_method'] ?? 'none';
  if (method !== 'none') return `token_endpoint_auth_method ${JSON.stringify(method)} is not supported here (only "none")`;
  const name = fields['client_name'];
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) return 'client_name must be a non-empty string of at most 200 characters';
  const redirectUris = fields['redirect_uris'];
  if (!strings(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) return `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`;
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return problem;
  }
  const grantTypes = fields['grant_types'] ?? ['authorization_code'];
  if (!strings(grantTypes) || !grantTypes.includes('authorization_code') || grantTypes.some((g) => !GRANT_TYPES.includes(g))) {
    return `grant_types must include authorization_code and may add refresh_token, no other`;
  }
  const responseTypes = fields['response_types'] ?? ['code'];
  if (!strings(responseTypes) || responseTypes.some((r) => r !== 'code')) return 'response_types may only hold "code"';
  const scope = fields['scope'];
  if (scope !== undefined && (typeof scope !== 'string' || scope.split(' ').filter(Boolean).some((s) => s !== 'mcp' && !(IDENTITY_SCOPES as readonly string[]).includes(s)))) {
    return 'scope may only hold "mcp" (and identity scopes)';
  }
  const metadata: Json = {};
  for (const key of ECHOED) if (fields[key] !== undefined && JSON.stringify(fields[key]).length <= 2000) metadata[key] = fields[key];
  return {
    id: clientId, name: name.trim(), secretHash: null, redirectUris, scopes: ['mcp'], grantTypes, tokenEndpointAuthMethod: 'none',
    dynamic: true, serviceAccountId: null, metadata, createdAt: new Date(now).toISOString(),
    metadataDocument: { fetchedAt: now, freshUntil: now + maxAgeSeconds * 1000 },
  };
}

/**
 * Makes sure the store holds a fresh copy of the client a metadata document URL names: kept while
 * its cache lifetime lasts, fetched again after. Returns why the client cannot be used, or null.
 * Any other client_id is left to the usual lookup.
 */
export async function refreshMetadataDocumentClient(store: Store, clientId: string, allowLoopback: boolean, now = Date.now()): Promise<string | null> {
  if (!looksLikeUrl(clientId)) return null;
  const urlProblem = metadataDocumentUrlProblem(clientId);
  if (urlProblem !== null) return `The client_id ${clientId} cannot be used: ${urlProblem}.`;
  const cached = getOAuthClient(store, clientId);
  if (cached?.metadataDocument !== undefined && cached.metadataDocument.freshUntil > now) return null;
  const policy: FetchPolicy = { allowLoopback, timeoutMs: DOCUMENT_TIMEOUT_MS, maxBytes: DOCUMENT_MAX_BYTES };
  const fetched = await fetchMetadataDocument(new URL(clientId), policy);
  if (!fetched.ok) return `The application's metadata document at ${clientId} cannot be used: ${fetched.problem}.`;
  const client = clientFromDocument(clientId, fetched.body, now, fetched.maxAgeSeconds);
  if (typeof client === 'string') return `The application's metadata document at ${clientId} cannot be used: ${client}.`;
  saveMetadataDocumentClient(store, client);
  return null;
}
