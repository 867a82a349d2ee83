/**
 * nls_search's size prior: among the leading files, a long file is divided by a pivoted function of
 * its length, so a central module that mentions every concept somewhere (a hub) does not outrank the
 * short file that implements the one thing asked about.
 */
import type { FileMatch } from '../../../model/result.js';
import type { ScoredFile } from './nls-rank.js';

/**
 * Why at the file level and not in BM25's length normalization: a term's occurrences saturate after
 * a handful, so normalizing them by length barely moves a hub that mentions each term dozens of
 * times; the file's whole score has to carry its length. Pivoted (Singhal et al.): a file of the
 * leading files' mean length keeps its score, one ten times longer loses about 40%, a short one
 * gains up to about 20%. The exponent keeps this a tie-breaker, not a preference for short files.
 */
export const SIZE_PIVOT = 0.5;
export const SIZE_EXPONENT = 0.3;
/** Leading files whose length is read (the rest keep their score, as if of mean length): the answer is among them. */
export const SIZE_RERANKED = 30;

/** The factor on a score for a file of `lines` lines among leading files of `meanLines` lines on average. */
export function sizeFactor(lines: number, meanLines: number): number {
  return 1 / Math.pow(1 - SIZE_PIVOT + (SIZE_PIVOT * Math.max(1, lines)) / Math.max(1, meanLines), SIZE_EXPONENT);
}

/**
 * The ranking with the size prior applied to its first SIZE_RERANKED files: `lineCount` gives a
 * file's length in lines, or null when it cannot be read (the file then keeps its score).
 */
export async function withSizePrior(ranked: readonly ScoredFile[], lineCount: (file: FileMatch) => Promise<number | null>): Promise<ScoredFile[]> {
  const leading = ranked.slice(0, SIZE_RERANKED);
  const lengths = await Promise.all(leading.map((f) => lineCount(f.match)));
  const known = lengths.filter((n): n is number => n !== null);
  if (known.length === 0) return [...ranked];
  const mean = known.reduce((sum, n) => sum + n, 0) / known.length;
  const resized = leading.map((f, i) => (lengths[i] === null ? f : { ...f, score: f.score * sizeFactor(lengths[i]!, mean) }));
  // Stable on ties: equal scores keep the order rankFiles gave them.
  return [...resized, ...ranked.slice(SIZE_RERANKED)].map((f, i) => ({ f, i })).sort((a, b) => b.f.score - a.f.score || a.i - b.i).map(({ f }) => f);
}
