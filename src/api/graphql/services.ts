/**
 * What the GraphQL resolvers need from the rest of Quarry, as small interfaces over plain data.
 * The composition root adapts the real stores and git layer to these; nothing here is implemented.
 */
import type { Principal } from '../../auth/principal.js';
import type { DiffHistory } from '../../history/diff-service.js';
import type { RepoHistory } from '../../history/repo-history.js';
import type { AccountService, ConfigService } from '../../model/accounts.js';
import type { OAuthApplicationService } from '../../model/oauth-apps.js';
import type { RepoBrowser } from '../../model/repos.js';
import type { SearchService } from '../../search/contracts.js';

export type { AccessTokenInfo, AccountService, ConfigService, RoleInfo, SiteConfigView, UserInfo } from '../../model/accounts.js';
export type { CommitInfo, RefInfo, RepoBrowser, RepoInfo, TreeItem } from '../../model/repos.js';

export interface SiteInfo {
  readonly siteID: string;
  readonly buildVersion: string;
  readonly productVersion: string;
}

export interface GraphQLServices {
  readonly search: SearchService;
  readonly repos: RepoBrowser;
  readonly accounts: AccountService;
  readonly config: ConfigService;
  readonly site: SiteInfo;
  /** Comparisons and ancestors through git; absent when not wired (those fields then fail). */
  readonly diffs?: DiffHistory;
  /** OAuth applications, for site admins; absent when not wired (those fields then fail). */
  readonly oauthApps?: OAuthApplicationService;
  /** The commit index, for Repository.contributors; absent when not wired (that field then fails). */
  readonly history?: RepoHistory;
  /** A repository's index and its phases, for Repository.textSearchIndex; null when not indexed. Absent when not wired. */
  indexStatus?(repo: string): RepoIndexStatus | null;
}

/** What the live index of a repository serves, and each index phase (text, symbols, history). */
export interface RepoIndexStatus {
  /** The published index; null while the first run has not published its text phase. */
  readonly live: {
    readonly commit: string;
    readonly updatedAt: string;
    readonly contentFilesCount: number;
    readonly contentByteSize: number;
    readonly indexShardsCount: number;
  } | null;
  readonly phases: readonly {
    readonly phase: string;
    readonly state: string;
    readonly done: number;
    readonly total: number | null;
    readonly rate: number;
    readonly etaSeconds: number | null;
  }[];
}

/** Per request: who asks (with what they may read), and the request's cancellation. */
export interface RequestContext {
  readonly principal: Principal;
  readonly signal: AbortSignal;
}

export interface GraphQLContext extends RequestContext {
  readonly services: GraphQLServices;
}
