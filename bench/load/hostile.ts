/**
 * The hostile caller's requests (issue 12's hostile inputs) and how each answer is classed: a
 * refusal of some kind is expected; a 5xx, a dropped connection or a timeout is not.
 */
import type { Answer, RequestSpec } from './http-client.js';
import { MCP_PATH, mcpHeaders } from './ordinary.js';

export type Door = 'graphql' | 'stream' | 'mcp';

export interface HostileKind {
  readonly name: string;
  readonly door: Door;
  /** `serial` numbers the request among all the hostile caller's requests. */
  request(token: string, serial: number): RequestSpec;
  /** A new request each time; the others are built once, so the generator spends no CPU rebuilding 1 MiB bodies. */
  readonly varies?: boolean;
}

/** Outcomes that mean the server failed the hostile caller rather than refusing it. */
export const UNEXPECTED_HOSTILE_OUTCOMES: ReadonlySet<string> = new Set(['server error (5xx)', 'dropped', 'dropped during upload', 'timeout']);

/** Exponential backtracking (a backreference keeps it off Hyperscan): refused when planned. */
const BACKTRACKER = '/(x+x+)+\\1y/';
/** Backtracking of degree 12 passes that check and runs on the JS engine until its deadline. */
const POLYNOMIAL_BACKTRACKER = `/(x)${'x*'.repeat(12)}\\1y/`;
/** `a?`ⁿ`a`ⁿ is exponential for V8's RegExp compiler; a new n each time, so no cached verdict helps. */
const compileBomb = (serial: number): string => {
  const n = 100 + (serial % 1000);
  return `/${'a?'.repeat(n)}${'a'.repeat(n)}/`;
};
/** 2,000 short terms (under the 16 KiB query text bound, far over the 128-pattern one). */
const manyTerms = (joiner: string): string => Array.from({ length: 2000 }, (_, i) => `t${i.toString(36)}`).join(joiner);
const HUGE = 1024 * 1024;

const SEARCH_DOCUMENT = 'query ($q: String!) { search(query: $q, version: V3) { results { matchCount alert { title } } } }';

function fragmentBomb(levels: number): string {
  const fragments = ['fragment F0 on User { username }'];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on User { ...F${i - 1} ...F${i - 1} }`);
  return `{ currentUser { ...F${levels} } }\n${fragments.join('\n')}`;
}

const graphql = (token: string, query: string, variables: Record<string, unknown> = {}): RequestSpec => ({
  method: 'POST', path: '/.api/graphql', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
  body: Buffer.from(JSON.stringify({ query, variables })),
});
const stream = (token: string, q: string): RequestSpec => ({
  method: 'GET', path: `/.api/search/stream?q=${encodeURIComponent(q)}`, headers: { Authorization: `token ${token}`, Accept: 'text/event-stream' },
});
const tool = (token: string, name: string, args: Record<string, unknown>): RequestSpec => ({
  method: 'POST', path: MCP_PATH, headers: mcpHeaders(token),
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })),
});

export const HOSTILE_KINDS: readonly HostileKind[] = [
  { name: `backtracking regex ${BACKTRACKER}, GraphQL`, door: 'graphql', request: (t) => graphql(t, SEARCH_DOCUMENT, { q: BACKTRACKER }) },
  { name: 'polynomial backtracking regex /(x)(x*)¹²\\1y/ timeout:60s, stream', door: 'stream', request: (t) => stream(t, `${POLYNOMIAL_BACKTRACKER} timeout:60s`) },
  { name: 'compile bomb a?ⁿaⁿ (new n each time), stream', door: 'stream', request: (t, s) => stream(t, compileBomb(s)), varies: true },
  { name: 'compile bomb a?ⁿaⁿ (new n each time), GraphQL', door: 'graphql', request: (t, s) => graphql(t, SEARCH_DOCUMENT, { q: compileBomb(s) }), varies: true },
  { name: 'GraphQL fragment bomb (2³⁰ expansions)', door: 'graphql', request: (t) => graphql(t, fragmentBomb(30)) },
  { name: 'GraphQL duplicate-field flood (5,000 × username)', door: 'graphql', request: (t) => graphql(t, `{ currentUser { ${'username '.repeat(5000)}} }`) },
  { name: '2,000-term OR query, GraphQL', door: 'graphql', request: (t) => graphql(t, SEARCH_DOCUMENT, { q: manyTerms(' OR ') }) },
  { name: '2,000-term AND query, stream', door: 'stream', request: (t) => stream(t, manyTerms(' AND ')) },
  { name: 'MCP keyword_search, 1 MiB query', door: 'mcp', request: (t) => tool(t, 'keyword_search', { query: 'x'.repeat(HUGE) }) },
  { name: 'MCP read_file, 1 MiB path', door: 'mcp', request: (t) => tool(t, 'read_file', { repo: 'github.com/koajs/koa', path: 'a/'.repeat(HUGE / 2) }) },
  { name: 'MCP go_to_definition, 1 MiB symbol', door: 'mcp', request: (t) => tool(t, 'go_to_definition', { repo: 'github.com/koajs/koa', path: 'lib/application.js', symbol: 'x'.repeat(HUGE) }) },
];

function json(answer: Answer): any {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return null;
  }
}

/** What became of a hostile request that got an HTTP answer. */
export function classifyHostile(door: Door, answer: Answer): string {
  if (answer.status === 429) return 'throttled (429)';
  if (answer.status >= 500) return 'server error (5xx)';
  if (answer.status !== 200) return `refused (${answer.status})`;
  if (door === 'stream') return answer.body.includes('event: alert') ? 'alert' : 'answered';
  const body = json(answer);
  if (door === 'graphql') return body?.errors ? 'GraphQL error' : 'answered';
  if (body?.error) return 'JSON-RPC error';
  return body?.result?.isError ? 'tool error' : 'answered';
}
