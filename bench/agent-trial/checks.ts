/**
 * Comparisons of answers with git's view of the same files and lists, shared by the tasks:
 * numbered lines against a file's lines, listed sets against git's sets. Pure functions.
 */
import { numberedLines } from './answers.js';

/** Answers cut long lines at 256 characters and say so; the rest of the line must still agree. */
const TRUNCATED = ' ... [line truncated]';

/** Null when every numbered line of `text` (under `path`'s header, if given) is that line of the file; else the first disagreement. */
export function linesDisagree(text: string, fileLines: readonly string[], path?: string): string | null {
  const lines = numberedLines(text, path);
  if (lines.length === 0) return 'the answer shows no numbered lines';
  for (const { line, text: shown } of lines) {
    const actual = fileLines[line - 1];
    if (actual === undefined) return `line ${line} is past the end of the file (${fileLines.length} lines)`;
    const agrees = shown.endsWith(TRUNCATED) ? actual.startsWith(shown.slice(0, -TRUNCATED.length)) : shown === actual;
    if (!agrees) return `line ${line} reads ${JSON.stringify(shown)}, git has ${JSON.stringify(actual)}`;
  }
  return null;
}

/** Null when the two lists hold the same items, each once; else what differs. */
export function setsDisagree(what: string, listed: readonly string[], truth: readonly string[]): string | null {
  const twice = listed.filter((item, i) => listed.indexOf(item) !== i);
  const missing = truth.filter((item) => !listed.includes(item));
  const extra = listed.filter((item) => !truth.includes(item));
  if (twice.length === 0 && missing.length === 0 && extra.length === 0) return null;
  const part = (label: string, items: readonly string[]): string[] => (items.length === 0 ? [] : [`${label} ${items.length} (${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''})`]);
  return `${what}: ${[...part('listed twice', twice), ...part('missing', missing), ...part('not in git', extra)].join('; ')}`;
}

/** The nearest line at or above `line` (1-based) that starts a function, method or type, and its name. */
export function enclosingDefinition(fileLines: readonly string[], line: number): { readonly line: number; readonly name: string } | null {
  const start = /^\s*(?:export\s+)?(?:async\s+)?(?:function\s+(\w+)|def\s+(\w+)|func\s+(?:\([^)]*\)\s*)?(\w+)|(?:pub(?:\([^)]*\))?\s+)?fn\s+(\w+))/;
  for (let i = line - 1; i >= 0; i--) {
    const m = start.exec(fileLines[i] ?? '');
    if (m) return { line: i + 1, name: m.slice(1).find((g) => g !== undefined)! };
  }
  return null;
}
