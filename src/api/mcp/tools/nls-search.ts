/**
 * The `nls_search` tool (reference §1.4): a natural-language query becomes stemmed terms ORed in one
 * engine query; the matched files are re-ranked with BM25 and rendered like keyword_search.
 */
import type { FileMatch, RepoMatch } from '../../../model/result.js';
import { objectSchema } from '../arguments.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
import { COPY_PATHS, DOCS_PATHS, roleIntent } from './file-role.js';
import { rankFiles } from './nls-rank.js';
import { describeTerms, engineQuery, parseNlsQuery } from './nls-terms.js';
import { AFTER_ARG } from './list-page.js';
import { renderSearchAnswer, type SearchArgs } from './search-answer.js';

const FILE_FILTER = /^-?(?:file|f|path):/i;

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
A semantic code search tool that helps find relevant code snippets using flexible linguistic matching.

Use this tool over keyword_search when you need to:
- Find code related to concepts rather than exact matches
- Get broader results with more potential matches
- Find code when you don't know the exact keyword to search for like symbol (function or variable) names
- When the keyword_search tool returns too few results

Search capabilities:
- The core matching is also keyword-based, but it's more flexible and can match more terms
- Uses stemming and OR binding between terms for broader matching (e.g. "auth impl" matches on either term)
- Identifiers are split into their parts (parseHTTPRequest also searches parse, http, request); files matching more of the terms, in their path or in the names they define, rank first
- Filters: repo:, file:, rev:, lang: and count: work as in keyword_search; every other word is a search term

When not to use this tool:
- When you need exact string matches (use the keyword_search tool instead)
- When you're looking for specific function names or variables

Best practices:
- IMPORTANT: Extract relevant keywords from a natural language query and search with only the keywords - if a user asks "How are database connections created or closed in the codebase?", search with "database connection create close", not "how are database connections created closed"
- For complex topics with multiple aspects, do separate searches for each main concept
- Use repo: and file: filters to improve result relevance
- If results seem off-target, try refining your query to be more specific or use filters to avoid unwanted results
- The results are case insensitive, so you should not repeat the same search term with different capitalization

Returns the top 3 most relevant code chunks (truncated to 1024 characters) from each matching file (up to 15 files).
Individual lines longer than 256 characters are truncated.
The answer starts with the terms actually searched and is limited to the server's token budget; files that do not fit are counted in a closing note.

Examples:
<examples>
<example>
\t<user>Find where event listener handlers are set up in the codebase</user>
\t<response>calls the nls search tool with query: "event listen handler"</response>
</example>
<example>
\t<user>Explain the code that controls the chat view in barfoo repo</user>
\t<response>calls the nls search tool with query: "repo:barfoo$ view controller chat"</response>
</example>
<example>
\t<user>How are database connections managed in the github.com/django/django repo?</user>
\t<response>calls the nls search tool with query: "repo:^github.com/django/django$ database connection manage"</response>
</example>
</examples>
`;

export const nlsSearchTool: ToolDefinition<SearchArgs> = {
  name: 'nls_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'The search query. Can include keywords, regex patterns, and filters.' },
    after: AFTER_ARG,
  }, ['query']),
  async run(args, ctx) {
    const nls = parseNlsQuery(args.query);
    if (nls.terms.length === 0) {
      throw new ToolError(`No search terms left in "${args.query}": every word was a filter, a common English word or shorter than 3 characters. Name the concepts or identifiers to look for, e.g. "session expiry" or "parseHTTPRequest".`);
    }
    const search = (query: string) => ctx.services.search.search({ query, signal: ctx.signal, canRead: ctx.principal.canRead });
    // Built bundles, vendored copies and (unless asked for) documentation hold a few huge files that
    // would spend the engine's line budget before the source is reached: left out unless the query
    // filters files itself, or nothing else matches.
    const exclusions = nls.filters.some((f) => FILE_FILTER.test(f)) ? [] : [COPY_PATHS, ...(roleIntent(nls.terms.map((t) => t.text)).docs ? [] : [DOCS_PATHS])];
    let response = await search([engineQuery(nls), ...exclusions.map((re) => `-file:${re.source}`)].join(' '));
    if (exclusions.length > 0 && !response.matches.some((m) => m.type !== 'repo')) response = await search(engineQuery(nls));
    const matched = response.matches.filter((m): m is FileMatch => m.type !== 'repo');
    const ranked = rankFiles(matched, nls, ctx.services.indexedFileCount(ctx.principal.canRead));
    const text = await renderSearchAnswer({
      page: { tool: 'nls_search', query: args.query, after: args.after },
      preface: describeTerms(nls),
      files: ranked,
      repos: response.matches.filter((m): m is RepoMatch => m.type === 'repo'),
      matchCount: ranked.reduce((n, f) => n + Math.max(1, f.hits.length), 0),
      limitHit: response.limitHit,
      limitAdvice: 'the engine stopped collecting matched lines, so files with rarer terms may be missing. Add repo:, file: or lang: filters, or use fewer, more specific terms.',
      skipped: response.skipped,
      noResultsAdvice: 'Try other words for the concept (synonyms, the names the code would use), fewer filters, or list_files to explore the repository.',
    }, ctx);
    return { text };
  },
};
