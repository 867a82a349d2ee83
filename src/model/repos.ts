/**
 * Repositories and their git objects as the front doors (GraphQL, MCP) read them: plain data and
 * one interface, implemented over the registry and the bare mirrors by repos/browser.ts.
 */

export interface RepoInfo {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly fork: boolean;
  readonly archived: boolean;
  /** Restricted to listed users or roles (not public). */
  readonly private: boolean;
  /** Short branch name, or null while the repository is empty. */
  readonly defaultBranch: string | null;
}

export interface RefInfo {
  readonly kind: 'branch' | 'tag';
  /** Short name: `main`, `v1`. */
  readonly name: string;
  /** The commit the ref finally points at (annotated tags peeled). */
  readonly oid: string;
}

export interface CommitInfo {
  readonly oid: string;
  readonly message: string;
  readonly authorName: string;
  readonly authorEmail: string;
  /** RFC 3339. */
  readonly authorDate: string;
}

export interface TreeItem {
  /** Full path from the repository root. */
  readonly path: string;
  readonly isDirectory: boolean;
}

/**
 * Repositories and their git objects. Visibility is enforced here, in the repository layer: a
 * repository the caller may not read is absent from list() and get(), exactly like a missing one,
 * and the git-object methods are only reached with names get() returned.
 */
export interface RepoBrowser {
  /** Every repository, sorted by name. */
  list(canRead: (repo: string) => boolean): readonly RepoInfo[];
  get(name: string, canRead: (repo: string) => boolean): RepoInfo | null;
  refs(repo: string): Promise<readonly RefInfo[]>;
  /** A 40-hex commit id, or null when the revision does not exist. */
  resolveRevision(repo: string, rev: string): Promise<string | null>;
  readCommit(repo: string, oid: string): Promise<CommitInfo>;
  /** The file's bytes, or null when the path is not a file in that commit. */
  readBlob(repo: string, commit: string, path: string): Promise<Buffer | null>;
  /** Entries under a directory ('' is the root), or null when the path is not a directory. */
  listTree(repo: string, commit: string, path: string, recursive: boolean): Promise<readonly TreeItem[] | null>;
}
