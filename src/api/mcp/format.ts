/**
 * Sourcegraph's MCP text format (reference §1.3, the June 2026 era): `# repo – path` file headers
 * (an en dash), `N: ` numbered lines, long lines cut with a marker, and links to a file at a commit.
 */

export const LINE_TRUNCATED = ' ... [line truncated]';

export function fileHeader(repo: string, path: string): string {
  return `# ${repo} \u2013 ${path}`;
}

/** Cuts a line longer than maxChars (counted in UTF-16 units, never splitting a surrogate pair). */
export function truncateLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  let end = maxChars;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}${LINE_TRUNCATED}`;
}

/** `N: line` for each line, numbered from firstLine (1-based), one per output line. */
export function numberLines(lines: readonly string[], firstLine: number, maxLineChars = Infinity): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) out += `${firstLine + i}: ${truncateLine(lines[i]!, maxLineChars)}\n`;
  return out;
}

/** Splits file text into lines the way the numbered output counts them: "\n" ends a line, "\r\n" too. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * `<origin>/<repo>@<commit>/-/blob/<path>` with an optional `?L<a>-<b>` range, the `?` percent-encoded
 * as Sourcegraph's answers have it (reference §1.4 read_file).
 */
export function blobUrl(origin: string, repo: string, commit: string, path: string, range?: { readonly start: number; readonly end: number }): string {
  const encodedPath = path.split('/').map(encodeURIComponent).join('/');
  const suffix = range === undefined ? '' : `%3FL${range.start}-${range.end}`;
  return `${origin}/${repo}@${commit}/-/blob/${encodedPath}${suffix}`;
}

export function treeUrl(origin: string, repo: string, commit: string, path: string): string {
  const encodedPath = path.split('/').filter(Boolean).map(encodeURIComponent).join('/');
  return `${origin}/${repo}@${commit}/-/tree/${encodedPath}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
