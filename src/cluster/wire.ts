/**
 * The internal search call between a front end and a search node (POST /.internal/cluster/search):
 * the request a front end sends, the answer a node gives, and the shared-secret header. Both ends
 * read this one description.
 */
import type { SearchResponse } from '../model/result.js';
import type { PatternType } from '../query/ast.js';

export const CLUSTER_SEARCH_PATH = '/.internal/cluster/search';

/** Carries the cluster secret (QUARRY_CLUSTER_SECRET); never the Authorization header, which names callers. */
export const CLUSTER_SECRET_HEADER = 'x-quarry-cluster-secret';

export interface ClusterSearchRequest {
  readonly query: string;
  readonly patternType?: PatternType;
  readonly defaultLimit?: number;
  readonly matcher?: 'auto' | 'hyperscan' | 'js';
  /**
   * The caller's permissions, resolved by the front end against the shared store: the repositories
   * it may read and asks this node for. The node searches nothing else.
   */
  readonly repos: readonly string[];
  /** Epoch milliseconds: the node answers by then with what it has. */
  readonly deadline: number;
}

export interface ClusterSearchAnswer {
  readonly response: SearchResponse;
  /** Asked-for repositories this node holds no index of (yet): the front end asks a replica. */
  readonly missing: readonly string[];
}

/** A search node's refusal of the query itself (syntax, revision): the front end passes it on as-is. */
export interface ClusterSearchError {
  readonly code: string;
  readonly message: string;
}

/** Every other routed operation (file reads, navigation, history), sent to a repository's owner. */
export const CLUSTER_CALL_PATH = '/.internal/cluster/call';

/**
 * One operation on a search node: `op` names it in the node's table, `args` are its plain-data
 * arguments, `repos` the repositories whose data it needs (the node answers `missing` for those
 * it holds no index of, and the front end asks the next owner), `readable` the caller's readable
 * repositories where the operation looks past `repos` (navigation, history), as resolved on the front end.
 */
export interface ClusterCallRequest {
  readonly op: string;
  readonly args: readonly unknown[];
  readonly repos: readonly string[];
  readonly readable?: readonly string[];
  /** Epoch milliseconds. */
  readonly deadline: number;
}

export interface ClusterCallAnswer {
  /** The operation's result as JSON (a file's bytes as base64 by the operation's own encoding). */
  readonly value?: unknown;
  readonly missing: readonly string[];
}

/** A QuarryError thrown by the operation, sent with its details (a revision hint reads them). */
export interface ClusterCallError extends ClusterSearchError {
  readonly details?: Readonly<Record<string, unknown>>;
}
