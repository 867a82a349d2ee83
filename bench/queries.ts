/**
 * The benchmark queries: one pattern with the same line-based semantics for Quarry, csearch and rg.
 * Patterns avoid `\s` (Quarry may match it across lines; the greps cannot) and spaces (in Quarry's
 * regexp mode whitespace separates terms), so blanks are written `[[:blank:]]`.
 */

export interface BenchQuery {
  readonly id: string;
  readonly title: string;
  /** RE2 syntax, shared by Quarry and csearch; also rg's unless `rgPattern` is set. */
  readonly pattern: string;
  /** rg's spelling of the same pattern where its defaults differ (Unicode `\w`). */
  readonly rgPattern?: string;
  readonly literal: boolean;
  readonly caseSensitive: boolean;
}

const FIVE_WORDS = '\\w{5}[[:blank:]]+\\w{5}[[:blank:]]+\\w{5}[[:blank:]]+\\w{5}[[:blank:]]+\\w{5}';

export const QUERIES: readonly BenchQuery[] = [
  { id: 'rare-literal', title: 'rare literal', pattern: 'PM_RESUME', literal: true, caseSensitive: true },
  { id: 'rare-literal-i', title: 'rare literal, case-insensitive', pattern: 'pm_resume', literal: true, caseSensitive: false },
  { id: 'common-literal', title: 'common literal', pattern: 'spin_lock_irqsave', literal: true, caseSensitive: true },
  { id: 'absent-literal', title: 'literal with no match', pattern: 'QUARRY_BENCH_NO_SUCH_TOKEN', literal: true, caseSensitive: true },
  { id: 'regex-literal', title: 'regex with a good literal', pattern: '[A-Z]+_RESUME', literal: false, caseSensitive: true },
  { id: 'regex-inner', title: 'regex with a required inner literal', pattern: 'ext4_[a-z_]+_inode', literal: false, caseSensitive: true },
  {
    id: 'regex-no-literal',
    title: 'regex without literals',
    pattern: FIVE_WORDS,
    // rg's \w is Unicode by default; RE2's (Quarry, csearch) is ASCII.
    rgPattern: `(?-u:${FIVE_WORDS})`,
    literal: false,
    caseSensitive: true,
  },
  { id: 'alternation', title: 'alternation', pattern: '(spin|mutex)_unlock_irqrestore', literal: false, caseSensitive: true },
  { id: 'regex-i', title: 'regex, case-insensitive', pattern: 'dma_[a-z]+_coherent', literal: false, caseSensitive: false },
];
