/**
 * Ranking signals for one file match, computed where the content is (in the worker). Weights
 * follow Zoekt's order of importance: path hits, definition-like lines, whole-word hits, exact case.
 */
import type { LineMatch } from '../model/result.js';

const DEFINITION = /\b(func|function|def|class|struct|interface|type|enum|trait|impl|fn|module|package|const|let|var|#define|typedef)\b/;
const WORD = /[0-9A-Za-z_]/;

export const SCORE_PATH_MATCH = 4000;
export const SCORE_DEFINITION = 2000;
export const SCORE_WORD_BOUNDARY = 1000;
export const SCORE_EXACT_CASE = 500;

export function scoreFile(lines: readonly LineMatch[], pathMatched: boolean, literals: readonly string[]): number {
  let score = pathMatched ? SCORE_PATH_MATCH : 0;
  let definition = false;
  let whole = false;
  let exact = false;
  for (const line of lines.slice(0, 50)) {
    for (const [offset, length] of line.offsetAndLengths) {
      const chars = Array.from(line.line);
      const before = chars[offset - 1] ?? ' ';
      const after = chars[offset + length] ?? ' ';
      const text = chars.slice(offset, offset + length).join('');
      if (!whole && length > 0 && !WORD.test(before) && !WORD.test(after)) whole = true;
      if (!exact && literals.includes(text)) exact = true;
      if (!definition && DEFINITION.test(chars.slice(0, offset).join(''))) definition = true;
    }
  }
  if (definition) score += SCORE_DEFINITION;
  if (whole) score += SCORE_WORD_BOUNDARY;
  if (exact) score += SCORE_EXACT_CASE;
  return score + Math.min(lines.length, 100);
}
