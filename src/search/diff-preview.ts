/**
 * The text of a `type:diff` match: the hunks whose changed lines matched, cut to the lines around
 * their matches (hunk-window.ts), in Sourcegraph's diff preview layout, with the match ranges
 * placed on its lines. Pure formatting, no git.
 */
import type { DiffLine, HunkHit } from '../history/diff-model.js';
import { matchWindows } from '../history/hunk-window.js';
import type { DiffPreview } from '../model/result.js';

export function diffPreview(hunks: readonly HunkHit[]): DiffPreview {
  const lines: string[] = [];
  const ranges: [number, number, number][] = [];
  let file: string | null = null;
  for (const { oldPath, newPath, hunk, hits } of hunks.flatMap((hit) => matchWindows(hit))) {
    const header = `${oldPath ?? '/dev/null'} ${newPath ?? '/dev/null'}`;
    if (header !== file) {
      lines.push(header);
      file = header;
    }
    const { oldRange, newRange, section } = hunk;
    lines.push(`@@ -${oldRange.startLine},${oldRange.lines} +${newRange.startLine},${newRange.lines} @@${section === '' ? '' : ` ${section}`}`);
    const matched = new Map<DiffLine, readonly (readonly [number, number])[]>(hits.map((h) => [h.line, h.ranges]));
    for (const line of hunk.lines) {
      // One column for the +, - or space in front of the line's text.
      for (const [start, end] of matched.get(line) ?? []) ranges.push([lines.length, start + 1, end - start]);
      lines.push(`${line.kind}${line.text}`);
    }
  }
  return { value: lines.join('\n'), ranges };
}
