/**
 * Paths as agents type them, made repo-relative: leading `/` and `./`, and trailing `/`, dropped.
 * The root directory is the empty string.
 */

export function cleanPath(path: string): string {
  return path.trim().replace(/^(?:\.?\/)+/, '').replace(/\/+$/, '').replace(/^\.$/, '');
}

/** The directory holding `path` ('' for a top-level entry). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
