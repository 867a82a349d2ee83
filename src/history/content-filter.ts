/**
 * contentTerms of commit_search: which candidate commits add or remove a line matching a term,
 * as `git log -G` decides (merges have no diff there, so they never match). One bounded git run
 * over the candidates given; callers give at most MAX_CANDIDATES at a time (commit-page.ts pages).
 */
import { runGit } from '../git/run.js';

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

/** A literal as a POSIX extended regular expression, which is what -G compiles. */
export function escapeExtended(term: string): string {
  return term.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
