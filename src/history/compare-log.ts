/**
 * A commit's ancestors (`GitCommit.ancestors`): the commits reachable from it, newest first,
 * optionally only those touching a path, paged by offset cursors. Read through git, bounded.
 */
import { createError } from '../errors.js';
import { repoPathProblem } from '../git/input.js';
import { runGit } from '../git/run.js';

export interface AncestorsPage {
  readonly oids: readonly string[];
  readonly endCursor: string | null;
  readonly hasNextPage: boolean;
}

export interface AncestorsRequest {
  readonly first: number;
  /** The endCursor of the previous page. */
  readonly afterCursor?: string | null;
  readonly path?: string | null;
}

const LOG_TIMEOUT_MS = 30_000;

/** `oid` is a commit id. */
export async function listAncestors(gitDir: string, oid: string, request: AncestorsRequest): Promise<AncestorsPage> {
  const skip = request.afterCursor == null ? 0 : decodeCursor(request.afterCursor);
  const first = Math.max(0, request.first);
  const path = request.path?.replace(/^\/+|\/+$/g, '') ?? '';
  // No commit touches a path no tree can hold (and git would read `..` as leaving the repository).
  if (repoPathProblem(path) !== null) return { oids: [], hasNextPage: false, endCursor: null };
  // runGit reads pathspecs literally (GIT_LITERAL_PATHSPECS), so the path needs no `:(literal)`.
  const args = ['log', '--format=%H', `--skip=${skip}`, `--max-count=${first + 1}`, oid, '--', ...(path === '' ? [] : [path])];
  const oids = (await runGit(args, { gitDir, timeoutMs: LOG_TIMEOUT_MS })).toString('utf8').split('\n').filter(Boolean);
  const hasNextPage = oids.length > first;
  return { oids: oids.slice(0, first), hasNextPage, endCursor: hasNextPage ? String(skip + first) : null };
}

function decodeCursor(cursor: string): number {
  if (!/^\d{1,9}$/.test(cursor)) throw createError('INVALID_ARGUMENT', `invalid cursor "${cursor}": pass the endCursor of the previous page`, { cursor });
  return Number(cursor);
}
