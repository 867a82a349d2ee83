/**
 * What an agent pays before its first question: the tools/list answer of an MCP endpoint, fetched
 * over HTTP as a client sends it, measured in characters and estimated tokens (answer.ts's 4
 * characters per token), per tool and whole. Measures only; it asserts nothing.
 */
import { estimateTokens } from '../../../src/api/mcp/answer.js';

export interface ToolSize {
  readonly name: string;
  /** The tool's entry in the answer, as JSON. */
  readonly chars: number;
  /** Of which its description (as a JSON string) and its input schema (as JSON)... */
  readonly descriptionChars: number;
  readonly schemaChars: number;
  /** ...and, inside the schema, the parameters' descriptions (as JSON strings). */
  readonly parameterDescriptionChars: number;
  readonly tokens: number;
}

export interface ListingSize {
  readonly path: string;
  readonly tools: readonly ToolSize[];
  /** The whole JSON-RPC response body, envelope included. */
  readonly chars: number;
  readonly tokens: number;
}

interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly properties?: Readonly<Record<string, { readonly description?: string }>> };
}

/** One stateless tools/list request (no initialize, as Sourcegraph's own client sends it). */
export async function fetchToolsList(baseUrl: string, path: string, token: string): Promise<{ body: string; tools: ListedTool[] }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`tools/list on ${path} answered ${response.status}: ${body.slice(0, 300)}`);
  const tools = (JSON.parse(body) as { result?: { tools?: ListedTool[] } }).result?.tools;
  if (tools === undefined) throw new Error(`tools/list on ${path} answered no tools: ${body.slice(0, 300)}`);
  return { body, tools };
}

export async function measureToolsList(baseUrl: string, path: string, token: string): Promise<ListingSize> {
  const { body, tools } = await fetchToolsList(baseUrl, path, token);
  return {
    path,
    tools: tools.map((tool) => {
      const chars = JSON.stringify(tool).length;
      return {
        name: tool.name,
        chars,
        descriptionChars: JSON.stringify(tool.description ?? '').length,
        schemaChars: JSON.stringify(tool.inputSchema).length,
        parameterDescriptionChars: Object.values(tool.inputSchema.properties ?? {}).reduce((n, p) => n + (p.description === undefined ? 0 : JSON.stringify(p.description).length), 0),
        tokens: estimateTokens(JSON.stringify(tool)),
      };
    }),
    chars: body.length,
    tokens: estimateTokens(body),
  };
}
