/**
 * The `nls_search` tool (reference §1.4): a natural-language query becomes stemmed terms and their
 * synonyms, ORed; the candidate files are re-ranked with BM25 and a size prior, and rendered like keyword_search.
 */
import type { FileMatch } from '../../../model/result.js';
import { objectSchema } from '../arguments.js';
import { splitLines } from '../format.js';
import { ToolError, type ToolContext, type ToolDefinition } from '../tool.js';
import { COPY_PATHS, DOCS_PATHS, roleIntent } from './file-role.js';
import { NEXT_PAGE_ARG } from './common-args.js';
import { rankFiles, type ScoredFile } from './nls-rank.js';
import { withSizePrior } from './nls-size.js';
import { retrieveCandidates, type Candidates } from './nls-retrieve.js';
import { describeTerms, parseNlsQuery, type NlsQuery } from './nls-terms.js';
import { renderSearchAnswer, type SearchArgs } from './search-answer.js';

const FILE_FILTER = /^-?(?:file|f|path):/i;

const DESCRIPTION = `Finds code about a concept from a few keywords (keyword_search is for exact text). Words are stemmed, split into identifier parts (parseHTTPRequest: parse, http, request) and joined by common synonyms (remove: delete, erase), then ORed; files rank by how well their path, definitions and content match.
Pass keywords, not a whole question (common words are dropped); filters as in keyword_search. The answer starts with the terms searched.
Example: {"query":"repo:^github.com/django/django$ database connection close"}`;

export const nlsSearchTool: ToolDefinition<SearchArgs> = {
  name: 'nls_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'Keywords and filters.' },
    after: NEXT_PAGE_ARG,
  }, ['query']),
  async run(args, ctx) {
    const nls = parseNlsQuery(args.query);
    if (nls.terms.length === 0) {
      throw new ToolError(`No search terms left in "${args.query}": every word was a filter, a common English word or shorter than 3 characters. Name the concepts or identifiers to look for, e.g. "session expiry" or "parseHTTPRequest".`);
    }
    const { ranked, candidates } = await nlsRankedFiles(nls, ctx);
    const text = await renderSearchAnswer({
      readableRepos: () => ctx.services.repos.list(ctx.principal.canRead).map((r) => r.name),
      filterQuery: nls.filters.join(' '),
      page: { tool: 'nls_search', query: args.query, after: args.after },
      preface: describeTerms(nls),
      files: ranked,
      repos: candidates.repos,
      matchCount: ranked.reduce((n, f) => n + Math.max(1, f.hits.length), 0),
      limitHit: candidates.limitHit,
      limitAdvice: 'the engine stopped collecting matched lines, so files with rarer terms may be missing. Add repo:, file: or lang: filters, or use fewer, more specific terms.',
      skipped: candidates.skipped,
      noResultsAdvice: 'Try other words for the concept (synonyms, the names the code would use), fewer filters, or list_files to explore the repository.',
    }, ctx);
    return { text };
  },
};

/**
 * The files nls_search ranks for a parsed query, best first, with what the retrieval found: shared
 * with the evaluator's search.nls, so a script sees the ranking the tool shows.
 */
export async function nlsRankedFiles(nls: NlsQuery, ctx: ToolContext): Promise<{ ranked: ScoredFile[]; candidates: Candidates }> {
  const search = (query: string) => ctx.services.search.search({ query, signal: ctx.signal, canRead: ctx.principal.canRead });
  const collectionSize = ctx.services.indexedFileCount(ctx.principal.canRead);
  // Built bundles, vendored copies and (unless asked for) documentation hold a few huge files that
  // would spend the engine's line budget before the source is reached: left out unless the query
  // filters files itself, or nothing else matches.
  const exclusions = nls.filters.some((f) => FILE_FILTER.test(f)) ? [] : [COPY_PATHS, ...(roleIntent(nls.terms.map((t) => t.text)).docs ? [] : [DOCS_PATHS])];
  // Only files the search found, so only files the caller may read. Kept, since the size prior reads again files the retrieval read whole.
  const texts = new Map<string, Promise<string | null>>();
  const readText = (f: FileMatch): Promise<string | null> => {
    const key = `${f.repositoryID}\0${f.commit}\0${f.path}`;
    let text = texts.get(key);
    if (text === undefined) {
      text = ctx.services.repos.readBlob(f.repository, f.commit, f.path).then((b) => b?.toString('utf8') ?? null);
      texts.set(key, text);
    }
    return text;
  };
  let candidates = await retrieveCandidates(nls, exclusions.map((re) => `-file:${re.source}`), search, readText, collectionSize);
  if (exclusions.length > 0 && candidates.files.length === 0) candidates = await retrieveCandidates(nls, [], search, readText, collectionSize);
  const ranked = await withSizePrior(rankFiles(candidates.files, nls, collectionSize), async (f) => {
    const text = await readText(f);
    return text === null ? null : splitLines(text).length;
  });
  return { ranked, candidates };
}
