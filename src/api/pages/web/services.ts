/**
 * What the web app's pages read, as the same interfaces the GraphQL and MCP doors read: search,
 * repositories and their git objects, history, symbols. The composition root hands in the real ones.
 */
import type { IdentityProvider } from '../../../auth/oauth/service.js';
import type { DiffHistory } from '../../../history/diff-service.js';
import type { RepoHistory } from '../../../history/repo-history.js';
import type { RepoBrowser } from '../../../model/repos.js';
import type { SymbolIndex } from '../../../model/symbols.js';
import type { SearchService } from '../../../search/contracts.js';

export interface WebServices {
  /** Who is signed in, the page's CSRF token and the site's origin. */
  readonly idp: IdentityProvider;
  readonly search: SearchService;
  readonly repos: RepoBrowser;
  readonly history: RepoHistory;
  readonly diffs: DiffHistory;
  readonly symbols: SymbolIndex;
}
