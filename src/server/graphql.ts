/**
 * Builds the GraphQL handler the server mounts: the store-backed account, configuration and
 * repository services, cost limits read from the site configuration on every request.
 */
import { createGraphQLHandler, type GraphQLHandler } from '../api/graphql/handler.js';
import { createError } from '../errors.js';
import type { DiffLineRunner } from '../history/diff-search.js';
import { createDiffHistory } from '../history/diff-service.js';
import type { RepoHistory } from '../history/repo-history.js';
import { mirrorDir } from '../repos/registry.js';
import type { SearchService } from '../search/contracts.js';
import type { Store } from '../store/open.js';
import { byGeneration } from '../store/generation.js';
import { getRepo } from '../store/repos.js';
import { getSiteConfig } from '../store/site-config.js';
import { createAccountService, createConfigService } from './account-service.js';
import { createRepoBrowser } from './repo-browser.js';

export const PRODUCT_VERSION = '0.1.0';

export function createServerGraphQL(deps: { readonly dataDir: string; readonly store: Store; readonly search: SearchService; readonly history?: RepoHistory; readonly pool: DiffLineRunner }): GraphQLHandler {
  const { store } = deps;
  return createGraphQLHandler({
    search: deps.search,
    repos: createRepoBrowser({ dataDir: deps.dataDir, store }),
    accounts: createAccountService(store),
    config: createConfigService(store),
    site: { siteID: `quarry-${store.path}`, buildVersion: PRODUCT_VERSION, productVersion: PRODUCT_VERSION },
    diffs: createDiffHistory((name) => {
      const record = getRepo(store, name);
      if (!record) throw createError('REPO_NOT_FOUND', `no such repository: ${name}`);
      return mirrorDir({ dataDir: deps.dataDir, store }, record);
    }, deps.pool),
    ...(deps.history ? { history: deps.history } : {}),
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
}
