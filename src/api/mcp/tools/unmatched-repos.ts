/**
 * The repo: filters of a search query that no repository the caller may read matches: a search
 * that found nothing because of them says so, and names the closest repositories, instead of
 * answering "No results" as if the code had been searched.
 */
import { parseQuery } from '../../../query/parse.js';
import { closest } from './closest-names.js';

/** The repo: values (not -repo:) that match none of `names`, each with up to three closest names. */
export function unmatchedRepoFilters(query: string, names: readonly string[]): { readonly filter: string; readonly closest: readonly string[] }[] {
  const out: { filter: string; closest: readonly string[] }[] = [];
  for (const pattern of positiveRepoPatterns(query)) {
    if (pattern === '' || names.some(matcherOf(pattern)) || out.some((o) => o.filter === `repo:${pattern}`)) continue;
    const plain = pattern.replace(/[\^$\\]/g, '');
    // Names are compared by their last part, the part people mistype: "acme/aqp" is close to github.com/acme/app.
    out.push({ filter: `repo:${pattern}`, closest: closest(plain.slice(plain.lastIndexOf('/') + 1), names, (n) => n.slice(n.lastIndexOf('/') + 1)).slice(0, 3) });
  }
  return out;
}

/** The patterns of the query's repo: filters (their @revisions apart), read by the query parser the search used. */
function positiveRepoPatterns(query: string): string[] {
  try {
    return parseQuery(query).basics.flatMap((basic) => basic.filters.repos.filter((r) => !r.negated).map((r) => r.pattern));
  } catch {
    // The search already answered; a query its parser refuses has no repo: filters to explain.
    return [];
  }
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
