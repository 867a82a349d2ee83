/**
 * The read doors of a running server as one principal reaches them over loopback: GraphQL, the
 * stream API, MCP on `/.api/mcp/all` (the SDK's own client) and plain GETs. Each answer is reduced
 * to its status and a canonical text without what differs between two servers or two runs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Credential, Instance } from './world.js';

export interface Answer {
  readonly status: number;
  readonly text: string;
}

export const MCP_PATH = '/.api/mcp/all';

function authorization(credential: Credential): Record<string, string> {
  if (credential.kind === 'anonymous') return {};
  if (credential.kind === 'token') return { Authorization: `token ${credential.token}` };
  return { Authorization: `token-sudo user="${credential.user}",token="${credential.token}"` };
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A JSON value with keys sorted, so equal data always prints the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

interface SseEvent { readonly event: string; readonly data: unknown }

function parseSse(body: string): SseEvent[] {
  return body.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
    const data = /^data: (.*)$/m.exec(block)?.[1];
    return { event, data: data === undefined ? null : JSON.parse(data) };
  });
}

/**
 * A stream's events as one value: matches merged and sorted (shards may finish in any order), the
 * final progress, filters, alerts and errors. Intermediate progress counts depend on timing, so
 * only one property of them is kept: none counts more than the final answer does.
 */
function canonicalStream(body: string): string {
  const events = parseSse(body);
  const of = (name: string): unknown[] => events.filter((e) => e.event === name).map((e) => e.data);
  const progress = of('progress') as { done: boolean; matchCount: number }[];
  const final = progress.find((p) => p.done) ?? null;
  return canonical({
    matches: (of('matches') as unknown[][]).flat().map((m) => ({ m, key: canonical(m) })).sort((a, b) => (a.key < b.key ? -1 : 1)).map(({ m }) => m),
    filters: of('filters'),
    final,
    progressWithinFinal: progress.every((p) => final !== null && p.matchCount <= final.matchCount),
    alerts: of('alert'),
    errors: of('error'),
    done: of('done').length,
  });
}

export class Door {
  private client: Promise<Client> | null = null;

  constructor(readonly instance: Instance, private readonly credential: Credential) {}

  /** The repository's id on this server (NOPE's is one never issued). */
  idOf(repo: string): string {
    return Buffer.from(`Repository:${this.instance.ids.get(repo)}`).toString('base64');
  }

  async graphql(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
    const response = await fetch(`${this.instance.url}/.api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...authorization(this.credential) }, body: JSON.stringify({ query, variables }) });
    const body = await response.text();
    return this.answer(response.status, response.headers.get('content-type')?.includes('json') ? canonical(JSON.parse(body)) : body);
  }

  async stream(q: string, params: Readonly<Record<string, string>> = {}): Promise<Answer> {
    const query = new URLSearchParams({ q, ...params });
    const response = await fetch(`${this.instance.url}/.api/search/stream?${query}`, { headers: authorization(this.credential) });
    const body = await response.text();
    return this.answer(response.status, response.status === 200 ? canonicalStream(body) : body);
  }

  /** A plain GET; `before` paths are requested first and their answers dropped (traffic for /metrics to count). */
  async get(path: string, before: readonly string[] = []): Promise<Answer> {
    for (const p of before) await (await fetch(`${this.instance.url}${p}`, { headers: authorization(this.credential) })).arrayBuffer();
    const response = await fetch(`${this.instance.url}${path}`, { headers: authorization(this.credential) });
    return this.answer(response.status, await response.text());
  }

  /**
   * One tool call through the SDK's client. Without credentials the client cannot even initialize,
   * so anonymous calls are plain JSON-RPC posts whose status, challenge and body are the answer.
   */
  async mcp(tool: string, args: Record<string, unknown>): Promise<Answer> {
    if (this.credential.kind === 'anonymous') {
      const response = await fetch(`${this.instance.url}${MCP_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
      });
      return this.answer(response.status, `${response.headers.get('www-authenticate')}\n${await response.text()}`);
    }
    const client = await this.mcpClient();
    try {
      const result = await client.callTool({ name: tool, arguments: args });
      const texts = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? c.type);
      return this.answer(200, canonical({ isError: result.isError === true, texts }));
    } catch (err) {
      return this.answer(200, canonical({ rpcError: (err as Error).message }));
    }
  }

  /** The tool names the endpoint lists to this principal. */
  async mcpTools(): Promise<string[]> {
    return (await (await this.mcpClient()).listTools()).tools.map((t) => t.name).sort();
  }

  async close(): Promise<void> {
    if (this.client !== null) await (await this.client).close();
  }

  private mcpClient(): Promise<Client> {
    this.client ??= (async () => {
      const client = new Client({ name: 'permission-matrix', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${this.instance.url}${MCP_PATH}`), { requestInit: { headers: authorization(this.credential) } }));
      return client;
    })();
    return this.client;
  }

  /** Without the server's origin, its repository ids (by name) and wall-clock durations. */
  private answer(status: number, text: string): Answer {
    let out = text.split(this.instance.url).join('<origin>');
    for (const [name, id] of this.instance.ids) {
      out = out.split(this.idOf(name)).join(`<id:${name}>`).replace(new RegExp(`"repositoryID":${id}\\b`, 'g'), `"repositoryID":"<id:${name}>"`);
    }
    out = out.replace(/"(durationMs|elapsedMilliseconds)":\d+/g, '"$1":0');
    return { status, text: out };
  }
}

/** Every spelling of a repository name an answer may carry (plain, regex-escaped, JSON-escaped, URL-encoded) as `<repo>`. */
export function blind(answer: Answer, repo: string): Answer {
  const spelled = new RegExp(repo.split('.').map(escapeRegex).join('\\\\*\\.').split('/').join('(?:/|%2F)'), 'g');
  return { status: answer.status, text: answer.text.replace(spelled, '<repo>') };
}
