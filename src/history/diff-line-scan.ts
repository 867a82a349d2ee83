/**
 * Worker side of diff search: matches a packed batch of changed lines against a diff pattern and
 * tests each commit against the pattern's expression. Runs only in a pool worker, never on the
 * main thread; the matcher compiler is injected (the worker's cache).
 */
import type { CompiledMatcher, PatternSpec } from '../matcher/matcher.js';
import type { EnginePreference } from '../matcher/select.js';
import type { DiffLineJob, DiffLineMatches } from './diff-lines.js';
import type { LineRange } from './diff-match.js';
import { evaluateAtoms } from './text-atoms.js';

export type CompileMatcher = (patterns: readonly PatternSpec[], preference: EnginePreference) => CompiledMatcher;

export function scanDiffLines(job: DiffLineJob, compile: CompileMatcher): DiffLineMatches {
  const matchers = job.pattern.specs.map((spec) => compile([spec], 'auto'));
  const highlight = job.pattern.highlight.map((atom) => matchers[atom]!);
  const lineCount = job.ends.length;
  const counts = new Uint32Array(lineCount);
  const ranges: number[] = [];
  const accepted = new Uint8Array(job.commitEnds.length);
  const searched = (line: number): boolean => (job.flags[line]! & job.searched) !== 0;
  const hay = (line: number): Uint8Array => job.text.subarray(line === 0 ? 0 : job.ends[line - 1]!, job.ends[line]!);
  let first = 0;
  job.commitEnds.forEach((end, commit) => {
    let hit = false;
    for (let line = first; line < end; line++) {
      if (!searched(line)) continue;
      const found = highlight.flatMap((m) => lineRanges(m, hay(line)));
      const reported = job.pattern.merge ? mergeRanges(found) : found;
      counts[line] = reported.length;
      for (const [start, stop] of reported) ranges.push(start, stop);
      hit ||= reported.length > 0;
    }
    const expr = job.pattern.expr;
    const lines = { first, end };
    accepted[commit] = hit && (expr === null || evaluateAtoms(expr, (atom) => anyLine(matchers[atom]!, lines, searched, hay))) ? 1 : 0;
    first = end;
  });
  return { counts, ranges: Uint32Array.from(ranges), accepted };
}

function anyLine(matcher: CompiledMatcher, lines: { first: number; end: number }, searched: (line: number) => boolean, hay: (line: number) => Uint8Array): boolean {
  for (let line = lines.first; line < lines.end; line++) if (searched(line) && lineRanges(matcher, hay(line)).length > 0) return true;
  return false;
}


function lineRanges(matcher: CompiledMatcher, hay: Uint8Array): LineRange[] {
  if (hay.length === 0 || matcher.test(hay, true) === 0) return [];
  const list = matcher.scan(hay, true);
  const out: LineRange[] = [];
  for (let i = 0; i < list.count; i++) {
    const start = list.data[i * 3 + 1]!;
    const end = list.data[i * 3 + 2]!;
    if (end > start) out.push([codePoints(hay, start), codePoints(hay, end)]);
  }
  return out;
}

/** How many code points the first `bytes` bytes of UTF-8 `hay` hold: the bytes that do not continue a sequence. */
function codePoints(hay: Uint8Array, bytes: number): number {
  let n = 0;
  for (let i = 0; i < bytes; i++) if ((hay[i]! & 0xc0) !== 0x80) n++;
  return n;
}

function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
