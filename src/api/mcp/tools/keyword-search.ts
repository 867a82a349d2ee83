/**
 * The `keyword_search` tool (reference §1.4): one query in Quarry's full query language, answered
 * with the best chunks of the engine's top-ranked files, a page at a time. The engine ranks; this only renders.
 */
import type { FileMatch, RepoMatch } from '../../../model/result.js';
import { objectSchema } from '../arguments.js';
import { SOURCEGRAPH_PREFIX, ToolError, type ToolDefinition } from '../tool.js';
import { AFTER_ARG } from './list-page.js';
import type { LineHit } from './search-chunks.js';
import { renderSearchAnswer, type RankedFile, type SearchArgs } from './search-answer.js';

const DESCRIPTION = `${SOURCEGRAPH_PREFIX}
A keyword code search tool that helps you find relevant code snippets across repositories. Use this tool when you need to:
- Find specific code with exact matching
- Verify if certain code exists in the codebase
- Find examples of code usage

Search capabilities:
- Basic search: Enter keywords to find code containing those terms
- Boolean search: Use AND/OR operators to combine terms. By default, all search terms are combined with AND, meaning that all search terms must match for a result to be included.
- Filters:
\t* repo: to search specific repositories (supports regex) Example: repo:github.com/google will select all repositories with the matching prefix (github.com/google-gemini/cookbook and github.com/google/neuroglancer both match). Use ^ to match the start of the string and $ to match the end of the string to avoid unwanted matches. You can chain multiple repo filters with OR while putting them in parentheses.
\t* file: to search specific file patterns (supports regex) Example: file:README.md will only search files that have README.md in their name. file:.*.ts will search all files with a .ts extension.
\t* rev: to search specific revisions (branches, tags, commits/sha). MUST always be used together with a repo: filter. Example: repo:^foo/bar$ rev:feat/xyz will only search the branch feat/xyz of the repo foo/bar. If not specified, defaults to the HEAD of the default branch.
\t* lang: to search files of one language. Example: lang:go
\t* count: to change how many matches the search collects. Example: count:1000 or count:all

When not to use this tool:
- For semantic or conceptual searches like 'authentication implementation'
- For queries that are similar to natural language like "API calls to middleware in admin panel".
- When you are not sure if the term exists in the codebase.
- For queries with several search terms.
- For exploratory searching of the codebase, when you are not sure what a certain term or name means.
Important: In these cases, use the nls_search tool instead.

Best practices:
- Use a small (1-3) number of search terms. Because we combine terms with AND by default, using too many terms may result in no results.
- Use specific, descriptive search terms
- Start with broader searches and narrow down using filters
- Use repo: and file: filters to improve result relevance
- The results are case insensitive, so you should not repeat the same search term with different capitalization.
- Use regex (file:.*.py) instead of glob (file:*.py) for searching files with a .py extension
- Don't use the rev: filter unless the user specifically asks for a particular branch, tag, or commit. The default behavior is to search the HEAD of the default branch.
Important: Use the literal OR between search terms if you are looking for code containing at least one of the terms. Do not use regex or with |.

Returns the top 3 most relevant code chunks (truncated to 1024 characters) from each matching file (up to 15 files).
Individual lines longer than 256 characters are truncated.
The answer is limited to the server's token budget; files that do not fit are counted in a closing note, with how to narrow the search.

Examples:
<examples>
<example>
\t<user>Find all code in the secret-fellowship organization on Github using log4j</user>
\t<response>calls the keyword search tool with query: "repo:^github.com/secret-fellowship log4j"</response>
</example>
<example>
\t<user>Find all code in the github.com/kubernetes/autoscaler repo that uses the http.NewRequest function</user>
\t<response>calls the keyword search tool with query: "repo:^github.com/kubernetes/autoscaler$ http.NewRequest"</response>
</example>
<example>
\t<user>Find Go code in ollama where memory mapping is used on darwin or linux</user>
\t<response>calls the keyword search tool with query: "repo:ollama file:.*.go mmap AND (darwin OR linux)"</response>
</example>
<example>
\t<user>Find FAQs in all readme files across all repositories</user>
\t<response>calls the keyword search tool with query: "file:README.md FAQ"</response>
</example>
<example>
\t<user>Find code in bar or foo repos that uses lodash</user>
\t<response>calls the keyword search tool with query: "(repo:foo OR repo:bar) lodash"</response>
</example>
<example>
\t<user>Find code containing either foo or bar in the dev/docs directory</user>
\t<response>calls the keyword search tool with query: "file:^dev/docs foo OR bar"</response>
</example>
<example>
\t<user>Find code containing foo in dev/docs directory of the repo bar/bas on branch quz</user>
\t<response>calls the keyword search tool with query: "repo:^bar/bas$ rev:quz file:^dev/docs foo"</response>
</example>
</examples>
`;

/** count:all already asked for everything the engine will collect. */
const COUNT_ALL = /(?:^|\s)count:all(?:\s|$)/i;

export const keywordSearchTool: ToolDefinition<SearchArgs> = {
  name: 'keyword_search',
  description: DESCRIPTION,
  inputSchema: objectSchema({
    query: { type: 'string', description: 'The search query. Can include keywords, regex patterns, and filters.' },
    after: AFTER_ARG,
  }, ['query']),
  async run(args, ctx) {
    if (args.query.trim() === '') {
      throw new ToolError('The query is empty: pass the text or code to find, with filters if you like, e.g. "repo:github.com/org/repo parseConfig" or "file:\\.go$ http.Handler".');
    }
    const response = await ctx.services.search.search({ query: args.query, signal: ctx.signal, canRead: ctx.principal.canRead });
    const files = response.matches.filter((m): m is FileMatch => m.type !== 'repo');
    const repos = response.matches.filter((m): m is RepoMatch => m.type === 'repo');
    const text = await renderSearchAnswer({
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
