/**
 * What the MCP tools need from the rest of Quarry, as interfaces over plain data; the composition
 * root (server/mcp.ts) supplies the real search service, repository browser and index readers.
 */
import type { RepoBrowser } from '../../model/repos.js';
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
  /** Live documents across every index: BM25's collection size. */
  indexedFileCount(): number;
}
