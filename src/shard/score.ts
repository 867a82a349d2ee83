/**
 * Ranking signals for one file match, computed where the content is (in the worker), on bytes.
 * Weights follow Zoekt's order of importance: path hits, definitions (from the file's symbol table
 * when it has one, else a definition-like line), whole-word hits, exact case.
 */
import type { LineMatch } from '../model/result.js';

const DEFINITION = /\b(func|function|def|class|struct|interface|type|enum|trait|impl|fn|module|package|const|let|var|#define|typedef)\b/;

export const SCORE_PATH_MATCH = 4000;
export const SCORE_DEFINITION = 2000;
export const SCORE_WORD_BOUNDARY = 1000;
export const SCORE_EXACT_CASE = 500;

/** Lines looked at for the definition signal; enough to rank, bounded for huge files. */
export const DEFINITION_LINES = 20;

export interface ScoreInput {
  readonly content: Uint8Array | null;
  /** Flattened [start, end) byte ranges of positive content matches. */
  readonly ranges: readonly number[];
  readonly lines: readonly LineMatch[];
  readonly pathMatched: boolean;
  /** The literal terms as UTF-8, for the exact-case signal. */
  readonly exactTexts: readonly Uint8Array[];
  /** Whether a match hits a definition's name per the symbol table; null when there is none. */
  readonly definitionHit?: boolean | null;
}

export function scoreFile(input: ScoreInput): number {
  let score = input.pathMatched ? SCORE_PATH_MATCH : 0;
  if (input.content && hasWholeWordMatch(input.content, input.ranges)) score += SCORE_WORD_BOUNDARY;
  if (input.content && hasExactMatch(input.content, input.ranges, input.exactTexts)) score += SCORE_EXACT_CASE;
  if (input.definitionHit ?? looksLikeDefinition(input.lines)) score += SCORE_DEFINITION;
  return score + Math.min(input.lines.length, 100);
}

function looksLikeDefinition(lines: readonly LineMatch[]): boolean {
  return lines.slice(0, DEFINITION_LINES).some((l) => l.offsetAndLengths.length > 0 && DEFINITION.test(l.line.slice(0, l.offsetAndLengths[0]![0])));
}

function isWordByte(b: number | undefined): boolean {
  return b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 95);
}

function hasWholeWordMatch(content: Uint8Array, ranges: readonly number[]): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    const start = ranges[i]!;
    const end = ranges[i + 1]!;
    if (end > start && !isWordByte(content[start - 1]) && !isWordByte(content[end])) return true;
  }
  return false;
}

function hasExactMatch(content: Uint8Array, ranges: readonly number[], texts: readonly Uint8Array[]): boolean {
  if (texts.length === 0) return false;
  for (let i = 0; i < ranges.length; i += 2) {
    const length = ranges[i + 1]! - ranges[i]!;
    for (const text of texts) {
      if (text.length === length && Buffer.compare(text, content.subarray(ranges[i]!, ranges[i + 1]!)) === 0) return true;
    }
  }
  return false;
}
