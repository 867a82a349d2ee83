/**
 * Wires the GraphQL door: the handler over the services it reads, with cost limits from the site
 * configuration as it stands at each request.
 */
import { createGraphQLHandler, type GraphQLHandler, type GraphQLRequest, type GraphQLResponse } from '../api/graphql/handler.js';
import { publicMessage } from '../errors.js';
import type { RequestContext } from '../api/graphql/services.js';
import { readRunningProgress } from '../indexer/index-progress.js';
import { indexPhaseStates } from '../indexer/index-state.js';
import type { OAuthApplicationService } from '../model/oauth-apps.js';
import type { Services } from '../services.js';
import { byGeneration } from '../store/generation.js';
import { getSiteConfig } from '../store/site-config.js';

export const PRODUCT_VERSION = '0.1.0';

export type GraphQLDoorServices = Pick<Services, 'store' | 'search' | 'repos' | 'accounts' | 'siteConfig' | 'diffs' | 'history' | 'catalog' | 'config'>;

export function createServerGraphQL(services: GraphQLDoorServices, oauthApps?: OAuthApplicationService): GraphQLHandler {
  const { store } = services;
  const handler = createGraphQLHandler({
    search: services.search,
    repos: services.repos,
    accounts: services.accounts,
    config: services.siteConfig,
    site: { siteID: `quarry-${store.path}`, buildVersion: PRODUCT_VERSION, productVersion: PRODUCT_VERSION },
    diffs: services.diffs,
    history: services.history,
    indexStatus(repo) {
      const manifest = services.catalog.get(repo);
      const run = readRunningProgress(services.config.dataDir).get(repo);
      if (!manifest && !run) return null;
      const live = manifest
        ? { commit: manifest.commit, updatedAt: manifest.indexedAt, contentFilesCount: manifest.files, contentByteSize: manifest.bytes, indexShardsCount: manifest.segments.length }
        : null;
      return { live, phases: indexPhaseStates(manifest, run) };
    },
    ...(oauthApps === undefined ? {} : { oauthApps }),
  }, {
    limits: byGeneration(store, () => {
      const limits = getSiteConfig(store).effective.rateLimits;
      return {
        maxDepth: limits.graphQLMaxDepth,
        maxAliases: limits.graphQLMaxAliases,
        maxFieldCount: limits.graphQLMaxFieldCount,
        maxDuplicateFieldCount: limits.graphQLMaxDuplicateFieldCount,
        maxUniqueFieldCount: limits.graphQLMaxUniqueFieldCount,
        maxExpandedSelections: limits.graphQLMaxExpandedSelections,
        maxSearches: limits.graphQLMaxSearches,
      };
    }),
  });
  // A mutation is answered once its writes are committed where every server sharing the store reads them (PostgreSQL: not at once).
  // A query is not: another write of this server refused meanwhile (a background sync's) is not its failure.
  const durable = async (request: GraphQLRequest, context: RequestContext): Promise<GraphQLResponse> => {
    const response = await handler(request, context);
    if (response.mutation !== true) return response;
    try {
      await store.root.committed();
    } catch (error) {
      return { status: 503, body: JSON.stringify({ errors: [{ message: publicMessage(error) }] }) };
    }
    return response;
  };
  return Object.assign(durable, { cache: handler.cache, schema: handler.schema });
}
