/**
 * The stream API's event payloads (reference §3.4): SSE framing, match objects (with chunkMatches
 * and line cutting), and the repo and lang filter facets. Pure functions over engine results.
 */
import type { LineMatch, SearchMatch } from '../../model/result.js';
import { toStreamMatch } from './match-json.js';
import { symbolStreamMatch } from './symbol-events.js';

/** One event: `event: NAME\ndata: JSON\n\n`. JSON.stringify never emits a raw newline. */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface MatchShape {
  readonly chunkMatches: boolean;
  readonly maxLineLen: number;
  /** Lines of context around matched lines in chunk matches, when the file's lines are at hand. */
  readonly contextLines: number;
}

/** `fileLines`: lines of the file by 0-based number, for context in chunk matches (context.ts reads them). */
export function streamMatch(match: SearchMatch, shape: MatchShape, fileLines: ReadonlyMap<number, string> | null = null): Record<string, unknown> {
  if (match.type === 'symbol') return symbolStreamMatch(match);
  if (match.type === 'repo' || match.type === 'commit' || (shape.maxLineLen < 0 && !shape.chunkMatches)) return toStreamMatch(match);
  const cut = (l: LineMatch): LineMatch => (shape.maxLineLen < 0 ? l : cutLine(l, shape.maxLineLen));
  const lineMatches = match.lineMatches.map(cut);
  const base = toStreamMatch({ ...match, lineMatches });
  if (!shape.chunkMatches || match.type !== 'content') return base;
  const context = fileLines === null ? [] : contextLines(lineMatches, fileLines, shape.contextLines).map(cut);
  return { ...base, chunkMatches: chunkMatches([...lineMatches, ...context].sort((a, b) => a.lineNumber - b.lineNumber)) };
}

/** The lines of the file within `around` of a matched line that are not matched themselves, as lines without ranges. */
function contextLines(matched: readonly LineMatch[], fileLines: ReadonlyMap<number, string>, around: number): LineMatch[] {
  const numbers = new Set(matched.map((l) => l.lineNumber));
  const context = new Map<number, string>();
  for (const line of matched) {
    for (let n = Math.max(0, line.lineNumber - around); n <= line.lineNumber + around; n++) {
      const text = fileLines.get(n);
      if (text !== undefined && !numbers.has(n)) context.set(n, text);
    }
  }
  return [...context].map(([n, text]) => ({ line: text, lineNumber: n, offsetAndLengths: [] }));
}

export function cutLine(line: LineMatch, max: number): LineMatch {
  const points = [...line.line];
  if (points.length <= max) return line;
  return {
    line: points.slice(0, max).join(''),
    lineNumber: line.lineNumber,
    offsetAndLengths: line.offsetAndLengths.filter(([offset]) => offset < max).map(([offset, length]) => [offset, Math.min(length, max - offset)] as const),
  };
}

interface Location {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Consecutive lines (matched, or context around them) form one chunk. The engine keeps no file
 * offsets, so Location.offset counts code points from the start of the chunk's content, not of the file.
 */
function chunkMatches(lines: readonly LineMatch[]): { content: string; contentStart: Location; ranges: { start: Location; end: Location }[] }[] {
  const groups: LineMatch[][] = [];
  for (const line of lines) {
    const last = groups.at(-1);
    if (last && last.at(-1)!.lineNumber + 1 === line.lineNumber) last.push(line);
    else groups.push([line]);
  }
  return groups.map((group) => {
    const ranges: { start: Location; end: Location }[] = [];
    let lineStart = 0;
    for (const line of group) {
      for (const [offset, length] of line.offsetAndLengths) {
        ranges.push({
          start: { offset: lineStart + offset, line: line.lineNumber, column: offset },
          end: { offset: lineStart + offset + length, line: line.lineNumber, column: offset + length },
        });
      }
      lineStart += [...line.line].length + 1;
    }
    return { content: group.map((l) => l.line).join('\n'), contentStart: { offset: 0, line: group[0]!.lineNumber, column: 0 }, ranges };
  });
}

export interface Filter {
  readonly value: string;
  readonly label: string;
  readonly count: number;
  readonly exhaustive: boolean;
  readonly kind: 'repo' | 'lang' | 'file' | 'symbol type';
}

const MAX_FILTERS_PER_KIND = 25;

const add = (counts: Map<string, number>, key: string, count: number): void => {
  counts.set(key, (counts.get(key) ?? 0) + count);
};

/**
 * Facets counted in matches, most frequent first: repositories, languages, top-level directories
 * (Sourcegraph's `file` kind) and the kinds of matched symbols (its `symbol type` kind).
 */
export function searchFilters(matches: readonly SearchMatch[], limitHit: boolean): Filter[] {
  const repos = new Map<string, number>();
  const langs = new Map<string, number>();
  const dirs = new Map<string, number>();
  const symbolKinds = new Map<string, number>();
  for (const m of matches) {
    const count = m.type === 'repo' ? 1 : m.matchCount;
    add(repos, m.repository, count);
    if (m.type === 'repo' || m.type === 'commit') continue;
    if (m.language !== null) add(langs, m.language, count);
    const slash = m.path.indexOf('/');
    if (slash > 0) add(dirs, m.path.slice(0, slash + 1), count);
    if (m.type === 'symbol') for (const symbol of m.symbols ?? []) add(symbolKinds, symbol.kind.toLowerCase(), 1);
  }
  const facet = (counts: Map<string, number>, kind: Filter['kind'], value: (label: string) => string): Filter[] =>
    [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_FILTERS_PER_KIND)
      .map(([label, count]) => ({ value: value(label), label, count, exhaustive: !limitHit, kind }));
  return [
    ...facet(repos, 'repo', (name) => `repo:^${escapeRegExp(name)}$`),
    ...facet(langs, 'lang', (name) => `lang:${name.toLowerCase().includes(' ') ? JSON.stringify(name.toLowerCase()) : name.toLowerCase()}`),
    ...facet(dirs, 'file', (dir) => `file:^${escapeRegExp(dir)}`),
    ...facet(symbolKinds, 'symbol type', (kind) => `select:symbol.${kind}`),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
