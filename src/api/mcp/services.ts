/**
 * What the MCP tools need from the rest of Quarry, as interfaces over plain data; the composition
 * root hands server/mcp.ts the real search service, repository browser and index readers.
 */
import type { DeepSearch } from '../../deepsearch/service.js';
import type { DiffHistory } from '../../history/diff-service.js';
import type { RepoHistory } from '../../history/repo-history.js';
import type { RepoBrowser } from '../../model/repos.js';
import type { SymbolIndex } from '../../model/symbols.js';
import type { ScriptRunner } from '../../sandbox/script-runner.js';
import type { SearchService } from '../../search/contracts.js';

export interface McpServices {
  readonly search: SearchService;
  /** Visibility is enforced by list/get; git-object methods are reached only with names get() returned. */
  readonly repos: RepoBrowser;
  /**
   * The commit read when a tool gets no revision: the indexed head of the default branch (so reads
   * come from the index), else the mirror's HEAD; null for an empty repository.
   */
  defaultCommit(repo: string): Promise<string | null>;
  /**
   * Live documents in the indexes of the repositories the caller may read: BM25's collection size.
   * Counting hidden ones would let the order of nls_search's answers tell how much they hold.
   */
  indexedFileCount(canRead: (repo: string) => boolean): number;
  /** True while the repository's text index serves but its symbol tables are still being extracted (the index run's second phase). */
  symbolsPending?(repo: string): boolean;
  /** Symbol tables of the indexed repositories, for go_to_definition and find_references; absent while the server builds none. */
  readonly symbols?: SymbolIndex;
  /** Diff search, comparisons and ancestors through git, for diff_search and compare_revisions; absent when not wired. */
  readonly diffs?: DiffHistory;
  /** The commit index, for commit_search and get_contributor_repos; absent when not wired. */
  readonly history?: RepoHistory;
  /** Lua scripts in the sandbox pool, for the evaluator; absent when not wired. */
  readonly evaluator?: ScriptRunner;
  /** Deep search conversations and their research, for deepsearch and deepsearch_read; absent when not wired. */
  readonly deepSearch?: DeepSearch;
}
