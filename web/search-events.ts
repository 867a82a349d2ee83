import type { ChunkMatch } from './result-rows.js';

/**
 * The stream API's event payloads (`/.api/search/stream`, Sourcegraph's shapes) as the search page
 * reads them: only the fields it shows.
 */
export interface LineMatch {
  readonly line: string;
  /** 0-based. */
  readonly lineNumber: number;
  readonly offsetAndLengths: readonly (readonly [number, number])[];
}

export interface PathRange {
  readonly start: { readonly offset: number };
  readonly end: { readonly offset: number };
}

interface FileFields {
  readonly repository: string;
  readonly branches: readonly string[];
  readonly commit: string;
  readonly path: string;
  readonly pathMatches?: readonly PathRange[];
  readonly language?: string | null;
}

export interface ContentMatch extends FileFields {
  readonly type: 'content';
  readonly lineMatches: readonly LineMatch[];
  /** With `cm=true`: the matched lines and the context around them. */
  readonly chunkMatches?: readonly ChunkMatch[];
}

export interface PathMatch extends FileFields {
  readonly type: 'path';
}

export interface SymbolInfo {
  readonly name: string;
  readonly containerName: string;
  readonly kind: string;
  /** 1-based. */
  readonly line: number;
}

export interface SymbolFileMatch extends FileFields {
  readonly type: 'symbol';
  readonly symbols: readonly SymbolInfo[];
}

export interface RepoMatch {
  readonly type: 'repo';
  readonly repository: string;
  readonly fork: boolean;
  readonly archived: boolean;
}

export interface CommitMatch {
  readonly type: 'commit';
  readonly repository: string;
  readonly oid: string;
  readonly message: string;
  readonly authorName: string;
  readonly authorDate: string;
  /** A fenced block: ```diff (type:diff) or ```COMMIT_EDITOR (type:commit). */
  readonly content: string;
  /** [line, character, length], line 0 being the fence. */
  readonly ranges: readonly (readonly [number, number, number])[];
}

export type StreamMatch = ContentMatch | PathMatch | SymbolFileMatch | RepoMatch | CommitMatch;

export interface StreamFilter {
  readonly value: string;
  readonly label: string;
  readonly count: number;
  readonly exhaustive: boolean;
  readonly kind: string;
}

export interface Skipped {
  readonly reason: string;
  readonly title: string;
  readonly message: string;
  readonly severity: string;
  readonly suggested?: { readonly title: string; readonly queryExpression: string };
}

export interface Progress {
  readonly done: boolean;
  readonly matchCount: number;
  readonly durationMs: number;
  readonly repositoriesCount?: number;
  readonly skipped: readonly Skipped[];
}

export interface Alert {
  readonly title: string;
  readonly description: string;
}
