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
  return sectionLines(text).filter((l) => path === undefined || l.path === path).map(({ line, text: t }) => ({ line, text: t }));
}

/** Every `N: text` line with the path of the `# repo – path` header above it (null before any header). */
export function sectionLines(text: string): (NumberedLine & { readonly path: string | null })[] {
  const out: (NumberedLine & { path: string | null })[] = [];
  let current: string | null = null;
  for (const raw of text.split('\n')) {
    const header = /^# \S+ \u2013 (?:[0-9a-f]{7,40} \u2013 )?(.+?)(?: \([^()]*\))?$/.exec(raw);
    if (header) {
      current = header[1]!;
      continue;
    }
    const m = /^[ +-]?(\d+): (.*)$/.exec(raw);
    if (m) out.push({ path: current, line: Number(m[1]), text: m[2]! });
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
 * next ones)`, or `call T with [the same arguments and] after|cursor: "…"`, the same call with that cursor.
 */
export function nextCall(text: string): NextCall | null {
  const full = /\(more available - call (\w+) with (\{.*\})(?: and the same ([\w ]+?) as this call)? to see the next ones\)/.exec(text);
  if (full) {
    const same = full[3] === undefined ? [] : full[3].split(' and ');
    return { tool: full[1]!, args: JSON.parse(full[2]!) as Record<string, unknown>, sameAs: same };
  }
  const bare = /call (\w+) with (?:the same arguments and )?(after|cursor): ("[^"]*")/.exec(text);
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

export interface ReferenceWindow {
  readonly path: string;
  /** `function merge_hooks`, `method Session.prepare_request`, `file level`. */
  readonly scope: string;
  readonly lines: readonly NumberedLine[];
}

/** find_references' windows: under each `# repo – path`, a `(in function X)` or `(at file level)` line, then numbered lines. */
export function referenceWindows(text: string): ReferenceWindow[] {
  const out: { path: string; scope: string; lines: NumberedLine[] }[] = [];
  let path = '';
  for (const raw of text.split('\n')) {
    const header = /^# \S+ \u2013 (.+)$/.exec(raw);
    const scope = /^\((?:in (.+)|at (file level))\)$/.exec(raw);
    const numbered = /^(\d+): (.*)$/.exec(raw);
    if (header) path = header[1]!;
    else if (scope) out.push({ path, scope: scope[1] ?? scope[2]!, lines: [] });
    else if (numbered && out.length > 0) out.at(-1)!.lines.push({ line: Number(numbered[1]), text: numbered[2]! });
  }
  return out;
}

export interface ChangedFile {
  readonly status: string;
  readonly path: string;
  /** Null for a binary file. */
  readonly added: number | null;
  readonly deleted: number | null;
}

/**
 * The files a compare_revisions answer lists with their counts: the file list's `M +12 -3 path`
 * lines when it has one, else each section header's `# repo – path (modified, +12 -3)`.
 */
export function changedFiles(text: string): ChangedFile[] {
  const listed = [...text.matchAll(/^([AMDRC]) (?:binary|\+(\d+) -(\d+)) (.+?)(?: \(from .+?\))?(?: \[[^\]]+\])?$/gm)]
    .map((m) => ({ status: m[1]!, path: m[4]!, added: m[2] === undefined ? null : Number(m[2]), deleted: m[3] === undefined ? null : Number(m[3]) }));
  if (listed.length > 0) return listed;
  return fileHeaders(text).flatMap((h) => {
    const m = /^(\w+)(?: from .+?)?, \+(\d+) -(\d+)$/.exec(h.note ?? '');
    return m ? [{ status: m[1]!, path: h.path, added: Number(m[2]), deleted: Number(m[3]) }] : [];
  });
}

/** The +/- lines of one file's section in a diff answer (compare_revisions, diff_search), up to the next header. */
export function sectionChanges(text: string, path: string): { readonly added: string[]; readonly deleted: string[] } | null {
  const start = [...text.matchAll(HEADER)].find((m) => m[3] === path);
  if (start === undefined) return null;
  const rest = text.slice(start.index! + start[0].length);
  const end = rest.search(/^# \S+ \u2013 /m);
  const body = end < 0 ? rest : rest.slice(0, end);
  // diff_search numbers its lines (`+12: text`); compare_revisions writes plain unified diff (`+text`).
  const lines = body.split('\n').filter((l) => !l.startsWith('+++ ') && !l.startsWith('--- '));
  const content = (l: string): string => l.slice(1).replace(/^\d+: /, '');
  return { added: lines.filter((l) => l.startsWith('+')).map(content), deleted: lines.filter((l) => l.startsWith('-')).map(content) };
}

/** The call a compare_revisions answer offers for hunks it left out: `call compare_revisions with repo: "…", base: "…", head: "…", paths: [...]`. */
export function offeredPathsCall(text: string): { readonly repo: string; readonly base: string; readonly head: string; readonly paths: string[] } | null {
  const m = /call compare_revisions with repo: ("[^"]*"), base: ("[^"]*"), head: ("[^"]*"), paths: (\[[^\]]*\])/.exec(text);
  if (!m) return null;
  return { repo: JSON.parse(m[1]!) as string, base: JSON.parse(m[2]!) as string, head: JSON.parse(m[3]!) as string, paths: JSON.parse(m[4]!) as string[] };
}

/** `Showing 21-40 of 67.` in a paged answer. */
export function shownRange(text: string): { readonly from: number; readonly to: number; readonly of: number } | null {
  const m = /Showing ([\d,]+)-([\d,]+) of ([\d,]+)/.exec(text);
  const n = (s: string): number => Number(s.replaceAll(',', ''));
  return m ? { from: n(m[1]!), to: n(m[2]!), of: n(m[3]!) } : null;
}
