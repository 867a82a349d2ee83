/**
 * A matched hunk cut to the lines around its matches: each run of lines within `context` of a
 * matched line becomes a hunk of its own, with the ranges git would print for it, so a long
 * block of changes with one matching line shows that line and its neighbours, not the whole
 * block. What diff search shows (diff_search answers, type:diff previews); plain data, no git.
 */
import type { DiffHunk, DiffLine, HunkHit } from './diff-model.js';

/** Lines kept on each side of a matched line. */
export const MATCH_CONTEXT_LINES = 2;

/** The hit's hunk as one or more smaller hunks holding every matched line; the hit itself when nothing would be cut. */
export function matchWindows(hit: HunkHit, context: number = MATCH_CONTEXT_LINES): HunkHit[] {
  const { hunk } = hit;
  const matched = new Set<DiffLine>(hit.hits.map((h) => h.line));
  const keep = new Uint8Array(hunk.lines.length);
  hunk.lines.forEach((line, i) => {
    if (!matched.has(line)) return;
    for (let k = Math.max(0, i - context); k <= Math.min(hunk.lines.length - 1, i + context); k++) keep[k] = 1;
  });
  if (keep.every((k) => k === 1)) return [hit];
  const out: HunkHit[] = [];
  for (let first = keep.indexOf(1); first >= 0; first = keep.indexOf(1, first)) {
    let end = first;
    while (end < keep.length && keep[end] === 1) end++;
    const part = subHunk(hunk, first, end);
    out.push({ ...hit, hunk: part, hits: hit.hits.filter((h) => part.lines.includes(h.line)) });
    first = end;
  }
  return out;
}

/** Lines [first, end) of the hunk with their own ranges; an empty side names the line before it, as git does. */
function subHunk(hunk: DiffHunk, first: number, end: number): DiffHunk {
  const lines = hunk.lines.slice(first, end);
  const before = hunk.lines.slice(0, first);
  const range = (side: '+' | '-', whole: DiffHunk['oldRange']) => {
    const counted = (line: DiffLine) => line.kind !== side;
    // An empty range names the line before it: its first line is one further.
    const base = whole.lines === 0 ? whole.startLine + 1 : whole.startLine;
    const start = base + before.filter(counted).length;
    const count = lines.filter(counted).length;
    return { startLine: count === 0 ? start - 1 : start, lines: count };
  };
  const last = end === hunk.lines.length;
  return {
    oldRange: range('+', hunk.oldRange), newRange: range('-', hunk.newRange), section: hunk.section, lines,
    oldNoNewlineAtEnd: last && hunk.oldNoNewlineAtEnd, newNoNewlineAtEnd: last && hunk.newNoNewlineAtEnd,
  };
}
