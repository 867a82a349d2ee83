/**
 * What a caller may name inside a repository, checked before it reaches git: a path in a tree
 * (plain segments from the root) and one revision (no range, reflog, option or `rev:path` syntax).
 */

/** Longer paths cannot exist in a checkout (PATH_MAX); longer revisions are no branch anyone made. */
export const MAX_PATH_BYTES = 4096;
export const MAX_REVISION_LENGTH = 1024;

/** Cut to `max` characters for a message: callers see what they sent, not a megabyte of it. */
export function shorten(value: string, max = 120): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** shorten, then quoted as JSON, so control characters show as escapes. */
export function quoteInput(value: string, max = 120): string {
  return JSON.stringify(shorten(value, max));
}

/**
 * Why `path` cannot name an entry of a git tree, or null. `''` is the root. Trees never hold empty,
 * `.` or `..` names or NUL bytes, so such a path names nothing; git would also read `..` as
 * leaving the repository.
 */
export function repoPathProblem(path: string): string | null {
  if (path === '') return null;
  if (path.includes('\0')) return 'contains a NUL byte';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment (a leading, trailing or doubled "/")';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment; give the path from the repository root without "." or ".."`;
  }
  return null;
}

// Control characters and spaces never appear in ref names (git check-ref-format).
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;

/**
 * Why `rev` is not one revision Quarry will hand to git, or null. Branches, tags, commit ids and
 * ancestry suffixes (`main~2`, `HEAD^`) pass; ranges, reflogs, `rev:path`, `^{…}` peeling and
 * message searches, and anything git could read as an option do not.
 */
export function revisionProblem(rev: string): string | null {
  if (rev === '') return 'is empty';
  if (rev.length > MAX_REVISION_LENGTH) return `is longer than ${MAX_REVISION_LENGTH} characters`;
  if (rev.startsWith('-')) return 'starts with "-"';
  if (CONTROL_OR_SPACE.test(rev)) return 'contains a space, a NUL byte or another control character';
  if (rev.includes('..')) return 'is a range ("..") where one revision is expected';
  if (rev.includes('@{')) return 'uses reflog syntax ("@{…}"), which is not supported';
  if (rev.includes('^{')) return 'uses "^{…}" syntax, which is not supported';
  if (rev.includes(':')) return 'contains ":" (the "revision:path" and ":/message" forms are not supported)';
  return null;
}
