/**
 * contentTerms of commit_search: which candidate commits add or remove a line matching a term,
 * as `git log -G` decides (merges have no diff there, so they never match). One bounded git run
 * over at most MAX_CANDIDATES commits; the caller learns whether the cap cut the candidates.
 */
import { runGit } from '../git/run.js';

export const MAX_CANDIDATES = 5000;
const TIMEOUT_MS = 20_000;

export interface ContentFilterResult {
  readonly oids: ReadonlySet<string>;
  /** True when candidates beyond the cap were not examined. */
  readonly truncated: boolean;
}

export async function filterByContent(gitDir: string, candidates: readonly string[], terms: readonly string[], useRegex: boolean, caseSensitive: boolean): Promise<ContentFilterResult> {
  const examined = candidates.slice(0, MAX_CANDIDATES);
  if (examined.length === 0 || terms.length === 0) return { oids: new Set(examined), truncated: false };
  const pattern = terms.map((t) => (useRegex ? `(${t})` : escapeExtended(t))).join('|');
  const args = ['log', '--no-walk=unsorted', '--stdin', '--format=%H', ...(caseSensitive ? [] : ['-i']), '-G', pattern];
  const out = await runGit(args, { gitDir, input: `${examined.join('\n')}\n`, timeoutMs: TIMEOUT_MS, maxBytes: examined.length * 41 + 1 });
  const oids = new Set(out.toString('utf8').split('\n').filter((l) => l !== ''));
  return { oids, truncated: candidates.length > examined.length };
}

/** A literal as a POSIX extended regular expression, which is what -G compiles. */
export function escapeExtended(term: string): string {
  return term.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
