/**
 * The operations a cluster front end routes to a repository's owner, as a client calls them: a
 * GraphQL document reading files, trees, refs, ancestors, a comparison and contributors; MCP tool
 * calls for file reads, navigation and history; the stream API with chunk matches and context.
 * Each answer comes back as plain data to compare with a single server's.
 */
import assert from 'node:assert/strict';

export const GRAPHQL_REPOSITORY = `query($name: String!, $file: String!) { repository(name: $name) {
  name isPrivate defaultBranch { name target { oid } }
  branches { nodes { name target { oid } } }
  commit(rev: "HEAD") {
    oid message author { person { name email } }
    blob(path: $file) { path content byteSize binary }
    tree(path: "") { entries(recursive: true) { path isDirectory } }
    ancestors(first: 10) { nodes { oid subject } totalCount pageInfo { hasNextPage } }
  }
  comparison(base: "HEAD~1", head: "HEAD") { fileDiffs { nodes { oldPath newPath hunks { body } stat { added deleted } } diffStat { added deleted } } }
  contributors { nodes { person { name email } count } totalCount }
} }`;

/** A GraphQL answer as a client sees it: the data, and the errors' messages. */
export async function graphqlCall(base: string, token: string, query: string, variables: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${base}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${base} answered ${response.status}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text) as { data?: unknown; errors?: { message: string }[] };
  return { data: body.data ?? null, errors: (body.errors ?? []).map((e) => e.message) };
}

/** One MCP tool call on /.api/mcp/all: its text (the server's own origin, in its links, written <origin>) and whether it is an error. */
export async function mcpTool(base: string, token: string, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const response = await fetch(`${base}/.api/mcp/all`, {
    method: 'POST',
    headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text.slice(0, 500));
  const body = JSON.parse(text) as { result?: { content: { type: string; text?: string }[]; isError?: boolean }; error?: unknown };
  assert.ok(body.result, text.slice(0, 500));
  return { text: body.result.content.map((c) => c.text ?? '').join('\n').replaceAll(base, '<origin>'), isError: body.result.isError === true };
}

/** The stream API's raw SSE body with chunk matches and `lines` of context (the events as sent, in order). */
export async function streamWithContext(base: string, token: string, query: string, lines: number): Promise<{ status: number; matches: unknown[] }> {
  const response = await fetch(`${base}/.api/search/stream?q=${encodeURIComponent(query)}&cm=true&cl=${lines}`, { headers: { Authorization: `token ${token}` } });
  const text = await response.text();
  const matches: unknown[] = [];
  for (const block of text.split('\n\n')) {
    if (!/^event: matches$/m.test(block)) continue;
    matches.push(...JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as unknown[]);
  }
  const key = (m: any): string => `${m.repository} ${m.path}`;
  return { status: response.status, matches: matches.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}
