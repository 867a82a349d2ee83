/**
 * Reading MCP answers as an agent reads them: the parts of an answer's text a next step may take
 * (file headers, numbered lines, listed entries, refs, commits, the next-call line, suggestions).
 * Parsing only; nothing here knows the answers in advance.
 */

export interface FileHeader {
  readonly repo: string;
  readonly path: string;
  /** The middle field of a diff_search header (`# repo – commit – path`), else null. */
  readonly commit: string | null;
  /** What follows the path in parentheses, as compare_revisions writes it: `modified, +8 -5`. */
  readonly note: string | null;
}

const HEADER = /^# (\S+) \u2013 (?:([0-9a-f]{7,40}) \u2013 )?(.+?)(?: \(([^()]*)\))?$/gm;

/** `# repo – path` headers in order of appearance (duplicates kept). */
export function fileHeaders(text: string): FileHeader[] {
  return [...text.matchAll(HEADER)].map((m) => ({ repo: m[1]!, commit: m[2] ?? null, path: m[3]!, note: m[4] ?? null }));
}

/** Each distinct header path, first appearance first. */
export function headerPaths(text: string): string[] {
  return [...new Set(fileHeaders(text).map((h) => h.path))];
}

export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

/** `N: text` lines (read_file, search chunks, definitions), optionally only those under the header of `path`. */
export function numberedLines(text: string, path?: string): NumberedLine[] {
  const out: NumberedLine[] = [];
  let current: string | null = null;
  for (const raw of text.split('\n')) {
    const header = /^# \S+ \u2013 (?:[0-9a-f]{7,40} \u2013 )?(.+?)(?: \([^()]*\))?$/.exec(raw);
    if (header) {
      current = header[1]!;
      continue;
    }
    const m = /^[ +-]?(\d+): (.*)$/.exec(raw);
    if (m && (path === undefined || current === path)) out.push({ line: Number(m[1]), text: m[2]! });
  }
  return out;
}

/** list_files entries: every line after the URL line up to the first blank line or note. */
export function listedEntries(text: string): string[] {
  const lines = text.split('\n');
  const start = lines[0]?.startsWith('URL: ') ? 1 : 0;
  const out: string[] = [];
  for (const line of lines.slice(start)) {
    if (line.trim() === '' || line.startsWith('(') || /^[A-Z][a-z]+ /.test(line)) break;
    out.push(line.trim());
  }
  return out;
}

export interface ListedRef {
  readonly kind: 'branch' | 'tag';
  readonly name: string;
  readonly commit: string;
}

/** list_refs lines: `tag v1.2.0 0123456789ab`. */
export function listedRefs(text: string): ListedRef[] {
  return [...text.matchAll(/^(branch|tag) (\S+) ([0-9a-f]{7,40})$/gm)].map((m) => ({ kind: m[1] as 'branch' | 'tag', name: m[2]!, commit: m[3]! }));
}

export interface ListedCommit {
  readonly repo: string;
  readonly commit: string;
  readonly date: string;
  readonly author: string;
  readonly subject: string;
}

/** commit_search blocks: `repo hash date Author <email>` then the indented subject. */
export function listedCommits(text: string): ListedCommit[] {
  return [...text.matchAll(/^(\S+) ([0-9a-f]{7,40}) (\d{4}-\d{2}-\d{2}) (.+)\n {4}(.*)$/gm)]
    .map((m) => ({ repo: m[1]!, commit: m[2]!, date: m[3]!, author: m[4]!, subject: m[5]! }));
}

export interface DiffCommit {
  readonly repo: string;
  readonly commit: string;
  readonly path: string;
  readonly author: string;
  readonly date: string;
}

/** diff_search blocks: the `# repo – commit – path` header and the `author · date · subject` line under it. */
export function diffCommits(text: string): DiffCommit[] {
  return [...text.matchAll(/^# (\S+) \u2013 ([0-9a-f]{7,40}) \u2013 (.+)\n(.+?) \u00b7 (\S+) \u00b7 /gm)]
    .map((m) => ({ repo: m[1]!, commit: m[2]!, path: m[3]!, author: m[4]!, date: m[5]! }));
}

export interface ContributorRepo {
  readonly repo: string;
  readonly commits: number;
}

/** get_contributor_repos lines: `github.com/o/r - 1,574 commits, latest 2026-08-04`. */
export function contributorRepos(text: string): ContributorRepo[] {
  return [...text.matchAll(/^(\S+) - ([\d,]+) commits?, latest /gm)].map((m) => ({ repo: m[1]!, commits: Number(m[2]!.replaceAll(',', '')) }));
}

export interface NextCall {
  readonly tool: string;
  /** The arguments the answer spells out. */
  readonly args: Record<string, unknown>;
  /** Arguments the answer says to repeat from this call ("and the same query as this call"), or all of them for a bare cursor. */
  readonly sameAs: readonly string[] | 'all';
}

/**
 * The closing line of an answer with more to see: `(more available - call T with {...} to see the
 * next ones)`, or the older `call T with after: "cursor"`, which means the same call with that cursor.
 */
export function nextCall(text: string): NextCall | null {
  const full = /\(more available - call (\w+) with (\{.*\})(?: and the same ([\w ]+?) as this call)? to see the next ones\)/.exec(text);
  if (full) {
    const same = full[3] === undefined ? [] : full[3].split(' and ');
    return { tool: full[1]!, args: JSON.parse(full[2]!) as Record<string, unknown>, sameAs: same };
  }
  const bare = /call (\w+) with (after|first): ("[^"]*"|\d+)/.exec(text);
  if (bare) return { tool: bare[1]!, args: { [bare[2]!]: JSON.parse(bare[3]!) as unknown }, sameAs: 'all' };
  return null;
}

/** Names an error offers instead of what was asked: "Did you mean a, b?", "Closest existing: a, b." */
export function suggestions(text: string): string[] {
  const m = /Did you mean (.+?)\?/.exec(text) ?? /Closest existing: (.+?)\.(?: |$)/m.exec(text) ?? /it matches \d+ repositories \((.+?)\)/.exec(text);
  if (!m) return [];
  return m[1]!.split(/, | or /).map((s) => s.trim()).filter((s) => s !== '' && s !== '…');
}

/** `N references to X (defined at repo – path:line)` in a find_references answer. */
export function referenceSummary(text: string): { readonly total: number; readonly repo: string; readonly path: string; readonly line: number } | null {
  const m = /^([\d,]+) references? to \S+ \(defined at (\S+) \u2013 (.+):(\d+)\)/m.exec(text);
  return m ? { total: Number(m[1]!.replaceAll(',', '')), repo: m[2]!, path: m[3]!, line: Number(m[4]) } : null;
}
