/**
 * The ordinary callers' requests: a selective GraphQL search, the stream API, and MCP read_file,
 * keyword_search and go_to_definition, each with the check that its answer is the right one.
 */
import type { Answer, RequestSpec } from './http-client.js';

export interface OrdinaryOperation {
  readonly name: string;
  /** What is asked, for the summary. */
  readonly describe: string;
  request(token: string): RequestSpec;
  /** null when the answer is right, else what is wrong with it. */
  verify(answer: Answer): string | null;
  /** The answer is the same bytes every time, so each one must equal the first. */
  readonly stable: boolean;
}

const SEARCH_QUERY = 'class HTTPAdapter(BaseAdapter)';
const SEARCH_DOCUMENT = 'query ($q: String!) { search(query: $q, version: V3) { results { matchCount limitHit alert { kind title } results { ... on FileMatch { repository { name } file { path } } } } } }';
const STREAM_QUERY = '"func (engine *Engine) ServeHTTP"';

const TOOL_CALLS = {
  read_file: { repo: 'github.com/koajs/koa', path: 'lib/application.js', startLine: 1, endLine: 120 },
  keyword_search: { query: 'repo:^github\\.com/koajs/koa$ respond ctx.body' },
  go_to_definition: { repo: 'github.com/psf/requests', path: 'src/requests/sessions.py', symbol: 'HTTPAdapter' },
} as const;
type ToolName = keyof typeof TOOL_CALLS;

export const MCP_PATH = '/.api/mcp/all';

export function mcpHeaders(token: string): Record<string, string> {
  return { Authorization: `token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
}

function parse(answer: Answer): any {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return null;
  }
}

function statusProblem(answer: Answer): string | null {
  return answer.status === 200 ? null : `status ${answer.status}`;
}

const graphqlSearch: OrdinaryOperation = {
  name: 'GraphQL search',
  describe: `\`search(query: ${JSON.stringify(SEARCH_QUERY)}, version: V3)\`, all four repositories; expects src/requests/adapters.py only`,
  stable: true,
  request: (token) => ({
    method: 'POST', path: '/.api/graphql', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ query: SEARCH_DOCUMENT, variables: { q: SEARCH_QUERY } })),
  }),
  verify(answer) {
    const results = parse(answer)?.data?.search?.results;
    const files = (results?.results ?? []).map((r: any) => `${r.repository?.name}/${r.file?.path}`);
    if (results?.matchCount !== 1 || files.join() !== 'github.com/psf/requests/src/requests/adapters.py') {
      return statusProblem(answer) ?? `found ${JSON.stringify(files)}${results?.alert ? `; alert ${JSON.stringify(results.alert)}` : ''}`;
    }
    return results.alert ? `the right file, with an alert: ${JSON.stringify(results.alert)}` : null;
  },
};

const stream: OrdinaryOperation = {
  name: 'stream search',
  describe: `\`/.api/search/stream?q=${STREAM_QUERY}\`, read to \`done\`; expects gin.go in github.com/gin-gonic/gin`,
  stable: false,
  request: (token) => ({
    method: 'GET', path: `/.api/search/stream?q=${encodeURIComponent(STREAM_QUERY)}`,
    headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' },
  }),
  verify(answer) {
    const text = answer.body.toString('utf8');
    if (answer.status !== 200) return statusProblem(answer);
    if (text.includes('event: alert')) return 'an alert';
    // The last progress event says which shards were skipped (timed out, failed): none, for a whole answer.
    const skipped = [...text.matchAll(/"skipped":(\[[^\n]*?\])\}\n/g)].pop()?.[1] ?? 'no progress event';
    if (!text.includes('"path":"gin.go"') || !text.includes('"repository":"github.com/gin-gonic/gin"')) return `gin.go not found; skipped: ${skipped.slice(0, 300)}`;
    if (!text.endsWith('event: done\ndata: {}\n\n')) return 'no done event at the end';
    return skipped === '[]' ? null : `gin.go found, but skipped: ${skipped.slice(0, 300)}`;
  },
};

function toolCall(name: ToolName, expect: readonly string[]): OrdinaryOperation {
  return {
    name: `MCP ${name}`,
    describe: `\`tools/call ${name} ${JSON.stringify(TOOL_CALLS[name])}\`; expects ${expect.map((e) => JSON.stringify(e)).join(' and ')}`,
    stable: true,
    request: (token) => ({
      method: 'POST', path: MCP_PATH, headers: mcpHeaders(token),
      body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: TOOL_CALLS[name] } })),
    }),
    verify(answer) {
      const result = parse(answer)?.result;
      const text: string = result?.content?.[0]?.text ?? '';
      if (answer.status !== 200 || result === undefined) return statusProblem(answer) ?? 'no JSON-RPC result';
      if (result.isError) return `tool error: ${text.slice(0, 200)}`;
      const missing = expect.find((e) => !text.includes(e));
      return missing === undefined ? null : `answer lacks ${JSON.stringify(missing)}: ${JSON.stringify(text.slice(0, 300))}`;
    },
  };
}

export const ORDINARY_OPERATIONS: readonly OrdinaryOperation[] = [
  graphqlSearch,
  stream,
  toolCall('read_file', ["1: 'use strict'", 'lib/application.js']),
  toolCall('keyword_search', ['# github.com/koajs/koa – ', 'ctx.body']),
  toolCall('go_to_definition', ['# github.com/psf/requests – src/requests/adapters.py', 'class HTTPAdapter(BaseAdapter)']),
];
