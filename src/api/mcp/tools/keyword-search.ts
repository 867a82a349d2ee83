/**
 * The `keyword_search` tool (reference §1.4): one query in Quarry's full query language, answered
 * with the best chunks of the engine's top-ranked files, a page at a time. The engine ranks; this only renders.
 */
import type { FileMatch, RepoMatch } from '../../../model/result.js';
import { objectSchema } from '../arguments.js';
import { ToolError, type ToolDefinition } from '../tool.js';
import { NEXT_PAGE_ARG } from './common-args.js';
import { MAX_CHUNKS_PER_FILE, type LineHit } from './search-chunks.js';
import { MAX_FILES, renderSearchAnswer, type RankedFile, type SearchArgs } from './search-answer.js';

const DESCRIPTION = `Searches code with Sourcegraph's query language; for exact identifiers and text (nls_search finds concepts).
Terms are ANDed and case-insensitive; "quoted text" is exact, /regex/ is RE2; combine with AND, OR, NOT and parentheses (| is literal outside /regex/).
Filters: repo:REGEX (repo:^github.com/org/name$, repo:name@rev for a revision), file:REGEX (file:\\.py$, file:^docs/), -file:, lang:go, rev:BRANCH (with repo:), case:yes, count:N or count:all (collect more matches).
Answer: ${MAX_FILES} files a page, each "# repo – path" with its best ${MAX_CHUNKS_PER_FILE} chunks of numbered lines; the last lines say what was left out and give the next page's call.
Example: {"query":"repo:^github.com/gorilla/mux$ lang:go NewRouter"}`;

/** count:all already asked for everything the engine will collect. */
const COUNT_ALL = /(?:^|\s)count:all(?:\s|$)/i;

export const keywordSearchTool: ToolDefinition<SearchArgs> = {
  name: 'keyword_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'Search terms and filters.' },
    after: NEXT_PAGE_ARG,
  }, ['query']),
  async run(args, ctx) {
    if (args.query.trim() === '') {
      throw new ToolError('The query is empty: pass the text or code to find, with filters if you like, e.g. "repo:github.com/org/repo parseConfig" or "file:\\.go$ http.Handler".');
    }
    const response = await ctx.services.search.search({ query: args.query, signal: ctx.signal, canRead: ctx.principal.canRead });
    const files = response.matches.filter((m): m is FileMatch => m.type !== 'repo');
    const repos = response.matches.filter((m): m is RepoMatch => m.type === 'repo');
    const text = await renderSearchAnswer({
      readableRepos: () => ctx.services.repos.list(ctx.principal.canRead).map((r) => r.name),
      filterQuery: args.query,
      page: { tool: 'keyword_search', query: args.query, after: args.after },
      files: files.map(rankedByMatches),
      repos,
      matchCount: files.reduce((n, f) => n + f.matchCount, 0),
      limitHit: response.limitHit,
      limitAdvice: COUNT_ALL.test(args.query)
        ? 'count:all collects at most the site\'s search.limits.maxCount matches, so narrow the search with repo: or file: filters or a more specific pattern.'
        : 'add count:all (or a higher count:N), or narrow the search with repo: or file: filters or a more specific pattern.',
      skipped: response.skipped,
      noResultsAdvice: 'Check the spelling, drop a term (terms are ANDed), loosen repo: or file: filters, join alternatives with OR, or use nls_search for a broader search.',
    }, ctx);
    return { text };
  },
};

/** Keyword chunks rank by how many matches they hold, so a line's weight is its match count. */
function rankedByMatches(match: FileMatch): RankedFile {
  const hits: LineHit[] = match.lineMatches.map((lm) => ({ line: lm.lineNumber, weight: Math.max(1, lm.offsetAndLengths.length) }));
  return { match, hits };
}
