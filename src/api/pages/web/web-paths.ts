/**
 * Sourcegraph's URL shapes for repository pages, read and written in one place:
 * `/<repo>[@<rev>][/-/<view>[/<path>]]`, e.g. `/github.com/a/b@v1/-/blob/src/x.ts`. The links MCP
 * answers and GraphQL `url` fields carry (a blob's line range as a percent-encoded `?L10-20` at the
 * end of the path) open here. Pure: no I/O.
 */

export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface RepoLocation {
  readonly repo: string;
  /** The revision after `@` (a branch, tag or commit; may contain `/`), or null for the default branch. */
  readonly rev: string | null;
  /** The word after `/-/` (`tree`, `blob`, `raw`, `commits`, `commit`, `compare`, …); `tree` for the repository's root. */
  readonly view: string;
  /** The rest, decoded: a file or directory path, a commit, `base...head`; '' when none. */
  readonly path: string;
  /** A blob's line range, from a trailing `?L10-20` in the path (as MCP answers write it). */
  readonly range: LineRange | null;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

const TRAILING_RANGE = /\?L(\d+)(?:-(\d+))?$/;

/** The repository location a request path names, or null when it names none (or is not valid percent-encoding). */
export function parseRepoPath(rawPath: string): RepoLocation | null {
  if (!rawPath.startsWith('/') || rawPath.length < 2) return null;
  const marker = rawPath.indexOf('/-/');
  const head = (marker < 0 ? rawPath.slice(1) : rawPath.slice(1, marker)).replace(/\/+$/, '');
  const tail = marker < 0 ? '' : rawPath.slice(marker + 3);
  const at = head.indexOf('@');
  const repo = decode(at < 0 ? head : head.slice(0, at));
  const rev = at < 0 ? null : decode(head.slice(at + 1));
  if (repo === null || repo === '' || rev === '' || (at >= 0 && rev === null)) return null;
  const slash = tail.indexOf('/');
  const view = marker < 0 ? 'tree' : slash < 0 ? tail : tail.slice(0, slash);
  let path = slash < 0 || marker < 0 ? '' : decode(tail.slice(slash + 1).replace(/\/+$/, ''));
  if (path === null || view === '') return null;
  let range: LineRange | null = null;
  const ranged = view === 'blob' ? TRAILING_RANGE.exec(path) : null;
  if (ranged !== null) {
    const start = Number(ranged[1]);
    range = { start, end: ranged[2] === undefined ? start : Math.max(start, Number(ranged[2])) };
    path = path.slice(0, ranged.index);
  }
  return { repo, rev, view, path, range };
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** `/<repo>[@<rev>]`: the repository at a revision (its default branch when rev is null). */
export function repoUrl(repo: string, rev: string | null = null): string {
  return `/${encodePath(repo)}${rev === null ? '' : `@${encodePath(rev)}`}`;
}

/** `/<repo>[@<rev>]/-/<view>[/<path>]`. */
export function repoViewUrl(repo: string, rev: string | null, view: string, path = ''): string {
  return `${repoUrl(repo, rev)}/-/${view}${path === '' ? '' : `/${encodePath(path)}`}`;
}

/** A file, with the lines to show as an anchor the page scrolls to. */
export function blobUrl(repo: string, rev: string | null, path: string, range: LineRange | null = null): string {
  const anchor = range === null ? '' : range.end > range.start ? `#L${range.start}-${range.end}` : `#L${range.start}`;
  return `${repoViewUrl(repo, rev, 'blob', path)}${anchor}`;
}

export function searchUrl(query: string): string {
  return `/search?q=${encodeURIComponent(query)}`;
}
