/**
 * Result rows shared by every contender: "path:line" keys, path relative to the corpus worktree and
 * line 1-based, so sets from different tools compare directly. Parsing only; no tool is run here.
 */

export type RowSet = Set<string>;

export function rowKey(path: string, line: number): string {
  return `${path}:${line}`;
}

export function rowPath(key: string): string {
  return key.slice(0, key.lastIndexOf(':'));
}

const GREP_LINE = /^([^:]*):(\d+):/;

/**
 * Parses grep-style `path:line:text` output (rg -n --no-heading, csearch -n) whose paths start with
 * `worktree`. The corpus has no ':' in any path, so the first two colons delimit the fields.
 */
export function parseGrepRows(stdout: Buffer, worktree: string): RowSet {
  const prefix = worktree.endsWith('/') ? worktree : `${worktree}/`;
  const rows: RowSet = new Set();
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf(10, start);
    if (end === -1) end = stdout.length;
    // Only the head of a line is decoded: match lines can be megabytes long.
    const head = stdout.subarray(start, Math.min(end, start + 4096)).toString('utf8');
    start = end + 1;
    if (head === '') continue;
    const m = GREP_LINE.exec(head);
    if (!m || !m[1]!.startsWith(prefix)) throw new Error(`unexpected grep output line: ${head.slice(0, 200)}`);
    rows.add(rowKey(m[1]!.slice(prefix.length), Number(m[2])));
  }
  return rows;
}
