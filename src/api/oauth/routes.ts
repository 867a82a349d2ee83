/**
 * The authorization server as routes: discovery documents (RFC 8414 at the two well-known names,
 * RFC 9728 per protected resource), the machine endpoints and the consent pages. With `mcp.enabled`
 * false the MCP endpoints' resource documents answer 404 like the endpoints themselves.
 */
import { DESCRIBED_RESOURCES, PROTECTED_RESOURCE_WELL_KNOWN } from '../../auth/oauth/metadata.js';
import { MCP_RESOURCES, SERVER_RESOURCE } from '../../auth/oauth/resources.js';
import type { IdentityProvider } from '../../auth/oauth/service.js';
import type { Authentication } from '../../auth/principal.js';
import type { Route } from '../../http/routes.js';
import { consentRoutes } from './consent-pages.js';
import { CORS, endpointRoutes } from './endpoints.js';

const DISCOVERY = { ...CORS, 'Cache-Control': 'public, max-age=60' } as const;

export function oauthRoutes(idp: IdentityProvider): Route<Authentication>[] {
  const asMetadata: Route['handler'] = (request, reply) => reply.json(200, idp.authorizationServerMetadata(idp.origin(request.headers)), DISCOVERY);
  const resources = DESCRIBED_RESOURCES.map((resource): Route => ({
    method: 'GET',
    path: `${PROTECTED_RESOURCE_WELL_KNOWN}${resource === SERVER_RESOURCE ? '' : resource}`,
    handler(request, reply) {
      if ((MCP_RESOURCES as readonly string[]).includes(resource) && !idp.mcpEnabled()) return reply.json(404, { error: 'not found' }, CORS);
      reply.json(200, idp.protectedResourceMetadata(idp.origin(request.headers), resource), DISCOVERY);
    },
  }));
  return [
    { method: 'GET', path: '/.well-known/oauth-authorization-server', handler: asMetadata },
    { method: 'GET', path: '/.well-known/openid-configuration', handler: asMetadata },
    ...resources,
    ...endpointRoutes(idp),
    ...consentRoutes(idp),
  ];
}
