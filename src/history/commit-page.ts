/**
 * One page of a commit search: the commits each repository's metadata criteria chose, merged
 * newest first into one list, read from a position on; content terms (`git log -G`) are checked
 * on at most MAX_CANDIDATES of them per page: by the history index for the commits it holds and
 * terms it reads as git does (content-index.ts), else by git, after the index ruled out what it
 * can. Every hit carries its position in that list, so the next page starts exactly where this
 * one stopped and following pages visit each match once.
 */
import type { StoredCommit } from '../index/commits/commit-store.js';
import type { TrigramQuery } from '../model/trigram.js';
import { contentTrigrams, filterByContent, MAX_CANDIDATES } from './content-filter.js';
import { indexedContentPattern, matchIndexedContent, type ContentBounds } from './content-index.js';
import { commitsToRead, type DiffIndexReader } from './diff-index-filter.js';
import { LINE_ADDED, LINE_REMOVED, type DiffLineRunner } from './diff-lines.js';
import type { DiffPattern } from './diff-match.js';

export interface PageSource {
  readonly name: string;
  readonly id: number;
  readonly gitDir: string;
  /** The commits the metadata criteria matched, newest committer date first. */
  readonly commits: readonly StoredCommit[];
  /** The repository's history index, or null: git then checks every candidate. */
  readonly index: DiffIndexReader | null;
}

export interface ContentTerms {
  readonly terms: readonly string[];
  readonly useRegex: boolean;
  readonly caseSensitive: boolean;
}

export interface PagedCommit {
  readonly repository: string;
  readonly repositoryID: number;
  readonly commit: StoredCommit;
  /** Position in the merged list of candidates. */
  readonly position: number;
}

export interface CommitPage {
  readonly commits: readonly PagedCommit[];
  /** Matches from `start` on; a lower bound when `totalExact` is false. */
  readonly totalCount: number;
  readonly totalExact: boolean;
  /** Where the next page starts, or null when no candidate is left. */
  readonly next: number | null;
}

/** `pool` matches the index's stored diffs; `bounds` limit that matching. */
export async function commitPage(sources: readonly PageSource[], content: ContentTerms, start: number, count: number, pool: DiffLineRunner, bounds: ContentBounds): Promise<CommitPage> {
  // A stable sort: equal dates keep the repositories' order, then each repository's own.
  const merged = sources.flatMap((source) => source.commits.map((commit) => ({ source, commit })))
    .sort((a, b) => b.commit.committerDate - a.commit.committerDate);
  const at = (i: number): PagedCommit => ({ repository: merged[i]!.source.name, repositoryID: merged[i]!.source.id, commit: merged[i]!.commit, position: i });
  if (content.terms.length === 0) {
    const commits = [];
    for (let i = start; i < Math.min(merged.length, start + count); i++) commits.push(at(i));
    const end = start + commits.length;
    return { commits, totalCount: Math.max(0, merged.length - start), totalExact: true, next: end < merged.length ? end : null };
  }
  const window = merged.slice(start, start + MAX_CANDIDATES);
  const kept = new Set<string>();
  const query = contentTrigrams(content.terms, content.useRegex, content.caseSensitive);
  const pattern = indexedContentPattern(content.terms, content.useRegex, content.caseSensitive, query);
  await Promise.all(sources.map(async (source) => {
    const oids = window.filter((c) => c.source === source).map((c) => c.commit.oid);
    if (oids.length === 0) return;
    for (const oid of await matchingOids(source, oids, content, query, pattern, pool, bounds)) kept.add(`${source.id}\0${oid}`);
  }));
  const matched: PagedCommit[] = [];
  window.forEach((c, k) => {
    if (kept.has(`${c.source.id}\0${c.commit.oid}`)) matched.push(at(start + k));
  });
  const windowEnd = start + window.length;
  const next = matched.length > count ? matched[count]!.position : windowEnd < merged.length ? windowEnd : null;
  return { commits: matched.slice(0, count), totalCount: matched.length, totalExact: windowEnd >= merged.length, next };
}

/** The source's commits among `oids` whose diff matches a term: the index decides those it holds when it has a pattern, git the rest. */
async function matchingOids(source: PageSource, oids: readonly string[], content: ContentTerms, query: TrigramQuery, pattern: DiffPattern | null, pool: DiffLineRunner, bounds: ContentBounds): Promise<Iterable<string>> {
  const git = (candidates: readonly string[]) => filterByContent(source.gitDir, candidates, content.terms, content.useRegex, content.caseSensitive);
  if (source.index === null || pattern === null) return git(narrowed(source.index, query, oids, content.useRegex));
  const indexed = await matchIndexedContent(pool, source.index, oids, pattern, bounds);
  if (indexed.unindexed.length === 0) return indexed.matched;
  return [...indexed.matched, ...await git(indexed.unindexed)];
}

/**
 * The candidates the history index cannot rule out. A regular expression still reaches git with
 * at least one candidate, so a term git rejects fails as it would without the index.
 */
function narrowed(index: DiffIndexReader | null, query: TrigramQuery, oids: readonly string[], useRegex: boolean): readonly string[] {
  if (index === null || query.op === 'all') return oids;
  const toRead = commitsToRead(index, query, LINE_ADDED | LINE_REMOVED, oids);
  const kept = oids.filter((_, i) => toRead[i] === 1);
  return kept.length === 0 && useRegex ? oids.slice(0, 1) : kept;
}
