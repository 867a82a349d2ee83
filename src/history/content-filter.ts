/**
 * contentTerms of commit_search through git: which candidate commits add or remove a line
 * matching a term, as `git log -G` decides (merges have no diff there, so they never match). One
 * bounded git run over the candidates given; callers give at most MAX_CANDIDATES at a time
 * (commit-page.ts pages), only those the history index cannot decide (content-index.ts).
 */
import { runGit } from '../git/run.js';
import { MATCH_ALL, type TrigramQuery } from '../model/trigram.js';
import { planLiteral, planRegex } from '../regex/index.js';

export const MAX_CANDIDATES = 5000;
const TIMEOUT_MS = 20_000;

/** The candidates whose diff matches any term. */
export async function filterByContent(gitDir: string, candidates: readonly string[], terms: readonly string[], useRegex: boolean, caseSensitive: boolean): Promise<ReadonlySet<string>> {
  if (candidates.length === 0 || terms.length === 0) return new Set(candidates);
  const pattern = terms.map((t) => (useRegex ? `(${t})` : escapeExtended(t))).join('|');
  const args = ['log', '--no-walk=unsorted', '--stdin', '--format=%H', ...(caseSensitive ? [] : ['-i']), '-G', pattern];
  const out = await runGit(args, { gitDir, input: `${candidates.join('\n')}\n`, timeoutMs: TIMEOUT_MS, maxBytes: candidates.length * 41 + 1 });
  return new Set(out.toString('utf8').split('\n').filter((l) => l !== ''));
}

/**
 * What a line must hold for some term to match it as `git log -G` matches (for the history
 * index's narrowing; git still decides). A regular expression is narrowed only when it reads the
 * same as POSIX ERE (git runs in the C locale) and RE2: ASCII, no escapes, classes or braces, no
 * `(?` and no operator that ERE reads otherwise; any other term asks for every commit.
 */
export function contentTrigrams(terms: readonly string[], useRegex: boolean, caseSensitive: boolean): TrigramQuery {
  const args: TrigramQuery[] = [];
  for (const term of terms) {
    if (useRegex && !readsTheSame(term)) return MATCH_ALL;
    try {
      args.push((useRegex ? planRegex : planLiteral)(term, { caseSensitive }).trigrams);
    } catch {
      return MATCH_ALL;
    }
  }
  return args.length === 1 ? args[0]! : { op: 'or', args };
}

/** Whether a regular expression reads the same as POSIX ERE and RE2 (see contentTrigrams). */
export function readsTheSame(term: string): boolean {
  return READS_THE_SAME.test(term);
}

/** ASCII without \ [ ] { }, `(?`, or a repetition after a repetition, `(`, `|`, `^` or at the start. */
const READS_THE_SAME = /^(?![*+?])(?!.*\(\?)(?!.*[(|^*+?][*+?])[\x20-\x5a\x5e-\x7a|~()]*$/s;

/** A literal as a POSIX extended regular expression, which is what -G compiles. */
export function escapeExtended(term: string): string {
  return term.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
