/**
 * What the search service needs from the rest of the system, as interfaces: the index catalog,
 * the worker pool, and revisions that are not indexed. The composition root supplies them.
 */
import type { Manifest } from '../index/manifest.js';
import type { MemoryDocs } from '../index/memory-source.js';
import type { ShardSourceRef } from '../pool/messages.js';
import type { PoolFor } from '../pool/pool.js';
import type { PatternType } from '../query/ast.js';
import type { SearchMatch, SearchResponse } from '../model/result.js';

export interface CatalogView {
  list(): Manifest[];
  /** Where a segment's documents are read: its directory on disk, or documents held in memory. */
  source(segmentId: string): ShardSourceRef;
}

/** The worker pool: shard tasks, and the regexes over repository names this thread never runs itself. */
export interface ShardRunner extends PoolFor<'shard' | 'text-match'> {
  readonly threads: number;
}

export interface RevisionSource {
  /** A 40-hex commit id, or QuarryError REVISION_NOT_FOUND. */
  resolve(repo: string, rev: string): Promise<string>;
  /** Streams the text files of a commit in batches of about `batchBytes`. */
  readBatches(repo: string, commit: string, batchBytes: number, onBatch: (docs: MemoryDocs) => Promise<void>): Promise<void>;
}

export interface SearchRequest {
  readonly query: string;
  readonly patternType?: PatternType;
  /** Match limit when the query has no count: filter. */
  readonly defaultLimit?: number;
  readonly signal?: AbortSignal;
  /** Epoch milliseconds: a deadline set by whoever asked (a front end for its caller), earlier than the query's own. */
  readonly deadline?: number;
  /**
   * Repository visibility for the caller: repositories it refuses are never searched, listed or
   * counted. Absent means every repository (the CLI, run by whoever owns the data directory).
   */
  readonly canRead?: (repo: string) => boolean;
  /** Overrides the configured matcher engine for this search (benchmarks, engine-matrix tests). */
  readonly matcher?: 'auto' | 'hyperscan' | 'js';
  /** Called with matches as shards finish, before ranking (streaming front doors); not for `select:` queries, whose results differ in kind from what shards find. */
  readonly onMatches?: (matches: readonly SearchMatch[]) => void;
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchResponse>;
}
