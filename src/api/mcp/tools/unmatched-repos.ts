/**
 * The repo: filters of a search query that no repository the caller may read matches: a search
 * that found nothing because of them says so, and names the closest repositories, instead of
 * answering "No results" as if the code had been searched.
 */
import { closest } from './closest-names.js';

const REPO_FILTER = /(?:^|\s)(?:repo|r):("(?:[^"\\]|\\.)*"|\S+)/gi;

/** The repo: values (not -repo:) that match none of `names`, each with up to three closest names. */
export function unmatchedRepoFilters(query: string, names: readonly string[]): { readonly filter: string; readonly closest: readonly string[] }[] {
  const out: { filter: string; closest: readonly string[] }[] = [];
  for (const m of query.matchAll(REPO_FILTER)) {
    const raw = m[1]!;
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // repo:x@rev names a revision too; only the repository part is matched against names.
    const pattern = value.replace(/@.*$/, '');
    if (pattern === '' || names.some(matcherOf(pattern))) continue;
    const plain = pattern.replace(/[\^$\\]/g, '');
    // Names are compared by their last part, the part people mistype: "acme/aqp" is close to github.com/acme/app.
    out.push({ filter: `repo:${raw}`, closest: closest(plain.slice(plain.lastIndexOf('/') + 1), names, (n) => n.slice(n.lastIndexOf('/') + 1)).slice(0, 3) });
  }
  return out;
}

/** Sourcegraph reads repo: as a case-insensitive regular expression; an invalid one as text. */
function matcherOf(pattern: string): (name: string) => boolean {
  try {
    const re = new RegExp(pattern, 'i');
    return (name) => re.test(name);
  } catch {
    const text = pattern.toLowerCase();
    return (name) => name.toLowerCase().includes(text);
  }
}
