/**
 * The searcher seam: one kind of search (commits, diffs, repositories, files) behind one shape.
 * The service asks an ordered list; a searcher never reads or sets another searcher's state.
 */
import type { Manifest } from '../index/manifest.js';
import type { SearchMatch } from '../model/result.js';
import type { SearchStats } from '../model/stats.js';
import type { BasicQuery, Query } from '../query/ast.js';
import type { SearchRequest } from './contracts.js';
import type { RepoTarget } from './select-repos.js';

/**
 * Where a searcher's matches are listed: repositories, then commits, then files, whatever order
 * the query's alternatives named them in.
 */
export type Section = 'repositories' | 'commits' | 'files';
export const SECTIONS: readonly Section[] = ['repositories', 'commits', 'files'];

export interface Searcher {
  readonly section: Section;
  /** Whether this searcher answers the basic query; the first in the list that does, runs it. */
  accepts(basic: BasicQuery): boolean;
  /** Starts this searcher's part of one search: what it gathers across basic queries lives in the run. */
  start(scope: SearchScope): SearcherRun;
}

export interface SearcherRun {
  /** One basic query over the repositories selected for it; what it lists at once, in query order. */
  run(basic: BasicQuery, targets: readonly RepoTarget[]): Promise<Found>;
  /** After the last basic query: what it lists only once everything is in (ranked results). */
  finish?(): Found;
}

export interface SearchBounds {
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** One search as every searcher sees it. */
export interface SearchScope {
  /** The whole query: its first basic query's select: applies to the whole response. */
  readonly query: Query;
  readonly request: SearchRequest;
  /** The most matches a searcher lists, from count:, the front door or the site settings. */
  readonly limit: number;
  readonly bounds: SearchBounds;
  /** Every repository the caller may read, selected or not. */
  readonly manifests: readonly Manifest[];
  /** The response's statistics: a searcher adds what its own work did. */
  readonly stats: SearchStats;
}

export interface Found {
  readonly matches: readonly SearchMatch[];
  readonly matchCount: number;
  readonly limitHit: boolean;
  /** Some of the work stopped at the deadline: the response says its results are partial. */
  readonly timedOut: boolean;
  /** Repositories with a shard that failed, named by the notice that says results are partial. */
  readonly failedRepos: readonly string[];
}

export const NOTHING_FOUND: Found = { matches: [], matchCount: 0, limitHit: false, timedOut: false, failedRepos: [] };
