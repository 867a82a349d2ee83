/**
 * The discovery documents: authorization server metadata (RFC 8414, also served as OpenID
 * discovery for src-cli, which reads it there) and protected resource metadata (RFC 9728) for each
 * MCP endpoint, the GraphQL API and the server as a whole. Pure.
 */
import { SUPPORTED_SCOPES } from './clients.js';
import { DEVICE_CODE_GRANT } from './token-grants.js';
import { GRAPHQL_RESOURCE, MCP_RESOURCES, resourceUrl, SERVER_RESOURCE } from './resources.js';

export const OAUTH_BASE = '/.auth/idp/oauth';
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

export function authorizationServerMetadata(origin: string, dynamicRegistration: boolean): Record<string, unknown> {
  const endpoint = (name: string) => `${origin}${OAUTH_BASE}/${name}`;
  return {
    issuer: origin,
    authorization_endpoint: endpoint('authorize'),
    token_endpoint: endpoint('token'),
    ...(dynamicRegistration ? { registration_endpoint: endpoint('register') } : {}),
    revocation_endpoint: endpoint('revoke'),
    introspection_endpoint: endpoint('introspect'),
    userinfo_endpoint: endpoint('userinfo'),
    device_authorization_endpoint: endpoint('device/code'),
    jwks_uri: endpoint('jwks'),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes_supported: SUPPORTED_SCOPES,
    authorization_response_iss_parameter_supported: true,
    // Self-described clients are governed by the same switch as self-registered ones.
    client_id_metadata_document_supported: dynamicRegistration,
    // OpenID discovery requires these; no ID token is ever issued (the code flow returns none).
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['none'],
  };
}

const NAMES: Readonly<Record<string, string>> = {
  [SERVER_RESOURCE]: 'Quarry',
  [GRAPHQL_RESOURCE]: 'Quarry GraphQL API',
  '/.api/mcp': 'Quarry MCP',
  '/.api/mcp/all': 'Quarry MCP (all tools)',
  '/.api/mcp/deepsearch': 'Quarry MCP (deep search)',
};

/** The resources with their own document (`/.well-known/oauth-protected-resource<path>`; the server's at the bare path). */
export const DESCRIBED_RESOURCES: readonly string[] = [SERVER_RESOURCE, GRAPHQL_RESOURCE, ...MCP_RESOURCES];

export function protectedResourceMetadataUrl(origin: string, resource: string): string {
  return `${origin}${PROTECTED_RESOURCE_WELL_KNOWN}${resource === SERVER_RESOURCE ? '' : resource}`;
}

export function protectedResourceMetadata(origin: string, resource: string): Record<string, unknown> {
  const scopes = resource === GRAPHQL_RESOURCE ? ['user:all'] : resource === SERVER_RESOURCE ? ['mcp', 'user:all'] : ['mcp'];
  return {
    resource: resourceUrl(origin, resource),
    authorization_servers: [origin],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: NAMES[resource] ?? 'Quarry',
  };
}
