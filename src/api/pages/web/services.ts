/**
 * What the web app's pages read, as the same interfaces the GraphQL and MCP doors read: search,
 * repositories and their git objects, history, symbols. The composition root hands in the real ones
 * (server/web.ts); the few git reads only pages make (one commit's diff, a commit range) come as functions.
 */
import type { IdentityProvider } from '../../../auth/oauth/service.js';
import type { DiffHistory } from '../../../history/diff-service.js';
import type { CommitDiff, CommitMeta } from '../../../history/diff-model.js';
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
  /** A file at a commit, from the index when it holds that commit (no git process): search results' context lines. */
  readFile(repo: string, commit: string, path: string): Promise<Uint8Array | null>;
  /** The commit the index (and so the symbol tables) holds for the repository, else its HEAD; null when empty. */
  indexedCommit(repo: string): Promise<string | null>;
  /**
   * Highlight runs of a file (symbols/highlight.ts), computed in the worker pool within a deadline and
   * charged to the request's caller (`signal`); null: show it plain (also when it failed or ran out of time).
   */
  highlight(path: string, content: Uint8Array, signal: AbortSignal): Promise<Uint32Array | null>;
  /** One commit (a commit id) with its parents and its changes against its first parent. */
  commitDiff(repo: string, oid: string): Promise<CommitDiff | null>;
  /** The commits `head` has that `base` has not (commit ids), newest first, at most `max`. */
  commitsBetween(repo: string, base: string, head: string, max: number): Promise<readonly CommitMeta[]>;
}
