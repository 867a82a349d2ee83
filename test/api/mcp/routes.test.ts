/**
 * The MCP front door over real loopback HTTP, with the SDK's own client: endpoint tool lists from
 * the registry table, the deep search switch, protocol and tool errors, JSON and SSE responses,
 * methods, Host/Origin/CORS and every refusal — tools and services are small fakes here (the real
 * tools have their own tests, and test/e2e/mcp-access.test.ts runs the real server).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { objectSchema } from '../../../src/api/mcp/arguments.js';
import { mcpRoutes, type McpFrontDoor, type McpSettings } from '../../../src/api/mcp/routes.js';
import type { McpServices } from '../../../src/api/mcp/services.js';
import { ToolError, type ToolDefinition } from '../../../src/api/mcp/tool.js';
import { ANONYMOUS, type Authentication, type CredentialSource, type Principal } from '../../../src/auth/principal.js';
import { createHttpServer } from '../../../src/http/index.js';
import type { RequestCredentials } from '../../../src/http/request.js';
import type { HttpServer } from '../../../src/http/server.js';

const USER: Principal = { ...ANONYMOUS, userId: 7, username: 'agent', scopes: ['mcp'], roles: ['USER'], permissions: ['MCP#ACCESS'], tokenId: 1, canRead: () => true };

/** Like the real authenticator: a non-blank Authorization header, else `?token=`, names the credential. */
function authenticate({ headers, query }: RequestCredentials): Authentication {
  const header = headers['authorization']?.trim() || undefined;
  const token = query.get('token') || undefined;
  const via: CredentialSource = header !== undefined ? 'header' : token !== undefined ? 'query' : 'none';
  const presented = { via, scrapeToken: false };
  switch (header ?? (token === undefined ? undefined : `token ${token}`)) {
    case undefined: return { ok: true, principal: { ...ANONYMOUS, canRead: () => false }, ...presented };
    case 'token good': return { ok: true, principal: USER, ...presented };
    case 'token no-permission': return { ok: true, principal: { ...USER, permissions: [] }, ...presented };
    default: return { ok: false, failure: { status: 401, message: 'Invalid access token.' }, ...presented };
  }
}

const fakeTool = (name: string, run: ToolDefinition['run'] = async () => ({ text: `${name} ran` })): ToolDefinition => ({
  name, description: `the ${name} tool`, inputSchema: objectSchema({ word: { type: 'string', description: 'a word' } }, []), run,
});

const TOOLS: ToolDefinition[] = [
  fakeTool('read_file', async (args, ctx) => {
    if (args['word'] === 'missing') throw new ToolError('File not found: missing');
    return { text: `read ${String(args['word'])} as ${ctx.principal.username} via ${ctx.origin}, budget ${ctx.maxAnswerTokens}` };
  }),
  fakeTool('go_to_definition'),
  {
    ...fakeTool('deepsearch', async (_, ctx) => {
      for (let step = 1; step <= 3; step++) {
        ctx.progress?.(step, `step ${step}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { text: ctx.progress === undefined ? 'ran without progress' : 'ran with progress' };
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  fakeTool('deepsearch_read'),
];

const ENABLED: McpSettings = { enabled: true, maxAnswerTokens: 1234, tools: { disabled: [] } };
const settings: { current: McpSettings } = { current: ENABLED };
const servers: HttpServer[] = [];
const frontDoors: McpFrontDoor[] = [];

async function serve(options: { disableDeepsearchTool?: boolean; allowedOrigins?: string[] } = {}): Promise<string> {
  const front = mcpRoutes({
    settings: () => settings.current,
    site: () => ({ public: true }),
    services: {} as McpServices,
    origins: { loopbackListen: true, allowedOrigins: options.allowedOrigins ?? [] },
    disableDeepsearchTool: options.disableDeepsearchTool ?? false,
    version: '9.9.9',
    log: () => {},
    protocolThreads: 1,
    tools: TOOLS,
  });
  frontDoors.push(front);
  const server = createHttpServer({ authenticate, maxBodyBytes: () => 1 << 20, routes: front.routes });
  servers.push(server);
  const { port } = await server.listen('127.0.0.1', 0);
  return `http://127.0.0.1:${port}`;
}

async function connect(url: string, token = 'good'): Promise<Client> {
  const client = new Client({ name: 'routes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `token ${token}` } } }));
  return client;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'token good', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

let base = '';
let switchedOff = '';

before(async () => {
  base = await serve({ allowedOrigins: ['https://inspector.example'] });
  switchedOff = await serve({ disableDeepsearchTool: true });
});

after(async () => {
  for (const server of servers) await server.close(0);
  for (const front of frontDoors) await front.close();
});

describe('endpoints and the tool registry', () => {
  it('lists on each endpoint exactly the tools its column of the table names', async () => {
    const names = async (url: string): Promise<string[]> => {
      const client = await connect(url);
      const { tools } = await client.listTools();
      await client.close();
      return tools.map((t) => t.name).sort();
    };
    assert.deepEqual(await names(`${base}/.api/mcp`), ['deepsearch_read', 'read_file']);
    assert.deepEqual(await names(`${base}/.api/mcp/all`), ['deepsearch', 'deepsearch_read', 'go_to_definition', 'read_file']);
    assert.deepEqual(await names(`${base}/.api/mcp/deepsearch`), ['deepsearch', 'deepsearch_read']);
  });

  it('hides and refuses deepsearch everywhere when switched off, leaving deepsearch_read and its endpoint', async () => {
    const client = await connect(`${switchedOff}/.api/mcp/deepsearch`);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['deepsearch_read']);
    await assert.rejects(client.callTool({ name: 'deepsearch', arguments: {} }), /-32602.*Tool deepsearch is disabled on this instance/);
    assert.deepEqual((await client.callTool({ name: 'deepsearch_read', arguments: {} })).content, [{ type: 'text', text: 'deepsearch_read ran' }]);
    await client.close();
  });

  it('hides and refuses the tools mcp.tools.disabled names on every endpoint, from the next request on, and brings them back', async () => {
    const core = await connect(`${base}/.api/mcp`);
    const all = await connect(`${base}/.api/mcp/all`);
    const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name).sort();
    settings.current = { ...ENABLED, tools: { disabled: ['read_file', 'deepsearch'] } };
    try {
      assert.deepEqual(await names(core), ['deepsearch_read']);
      assert.deepEqual(await names(all), ['deepsearch_read', 'go_to_definition']);
      await assert.rejects(core.callTool({ name: 'read_file', arguments: { word: 'x' } }),
        /-32602.*Tool read_file is disabled on this instance \(site setting mcp\.tools\.disabled\)\. Tools on this endpoint: deepsearch_read\./);
      await assert.rejects(all.callTool({ name: 'deepsearch', arguments: {} }), /-32602.*Tool deepsearch is disabled on this instance \(site setting/);
      const raw = await post(`${base}/.api/mcp/all`, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'read_file', arguments: { word: 'x' } } });
      assert.deepEqual(((await raw.json()) as any).error.code, -32602);
      assert.deepEqual((await all.callTool({ name: 'go_to_definition', arguments: {} })).content, [{ type: 'text', text: 'go_to_definition ran' }]);
    } finally {
      settings.current = ENABLED;
    }
    assert.deepEqual(await names(core), ['deepsearch_read', 'read_file']);
    assert.deepEqual((await core.callTool({ name: 'read_file', arguments: { word: 'x' } })).content, [{ type: 'text', text: `read x as agent via ${base}, budget 1234` }]);
    await core.close();
    await all.close();
  });

  it('keeps the deep search switch working beside the site setting, each refusal naming its cause', async () => {
    const client = await connect(`${switchedOff}/.api/mcp/deepsearch`);
    settings.current = { ...ENABLED, tools: { disabled: ['deepsearch_read'] } };
    try {
      assert.deepEqual((await client.listTools()).tools, []);
      await assert.rejects(client.callTool({ name: 'deepsearch', arguments: {} }), /Tool deepsearch is disabled on this instance \(SRC_MCP_DISABLE_DEEPSEARCH_TOOL\)\. Tools on this endpoint: none\./);
      await assert.rejects(client.callTool({ name: 'deepsearch_read', arguments: {} }), /Tool deepsearch_read is disabled on this instance \(site setting mcp\.tools\.disabled\)/);
    } finally {
      settings.current = ENABLED;
    }
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['deepsearch_read']);
    await client.close();
  });

  it('declares a description, an input schema and annotations for every tool: read-only and closed-world unless the tool says otherwise', async () => {
    const client = await connect(`${base}/.api/mcp/all`);
    for (const tool of (await client.listTools()).tools) {
      assert.ok(tool.description && tool.inputSchema.type === 'object');
      assert.equal(tool.outputSchema, undefined, 'answers are text content only');
      const declared = tool.name === 'deepsearch' ? { readOnlyHint: false, destructiveHint: false, openWorldHint: false } : { readOnlyHint: true, openWorldHint: false };
      assert.deepEqual(tool.annotations, declared, tool.name);
    }
    assert.equal(client.getServerVersion()?.name, 'quarry');
    assert.equal(client.getServerVersion()?.version, '9.9.9');
    await client.close();
  });
});

describe('tool calls', () => {
  it('runs a tool with the caller, the origin it used and the configured answer budget', async () => {
    const client = await connect(`${base}/.api/mcp`);
    const result = await client.callTool({ name: 'read_file', arguments: { word: 'x' } });
    const text = `read x as agent via ${base}, budget 1234`;
    assert.deepEqual(result, { content: [{ type: 'text', text }] });
    await client.close();
  });

  it('answers an unknown tool with a protocol error and bad arguments or tool failures with tool errors', async () => {
    const client = await connect(`${base}/.api/mcp`);
    await assert.rejects(client.callTool({ name: 'go_to_definition', arguments: {} }), /-32602.*Unknown tool: go_to_definition/);
    const bad = await client.callTool({ name: 'read_file', arguments: { word: 3, colour: 'red' } });
    assert.equal(bad.isError, true);
    assert.deepEqual(bad.content, [{ type: 'text', text: 'Invalid arguments: "word" must be a string, not 3; unknown argument "colour" (known: word).' }]);
    const missing = await client.callTool({ name: 'read_file', arguments: { word: 'missing' } });
    assert.deepEqual([missing.isError, missing.content], [true, [{ type: 'text', text: 'File not found: missing' }]]);
    await client.close();
  });

  it('answers JSON by default and SSE when the request carries a progress token', async () => {
    const call = (meta: object) => ({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_file', arguments: { word: 'y' }, ...meta } });
    const plain = await post(`${base}/.api/mcp`, call({}));
    assert.equal(plain.headers.get('content-type'), 'application/json');
    assert.equal((await plain.json() as any).result.content[0].text, `read y as agent via ${base}, budget 1234`);
    const streamed = await post(`${base}/.api/mcp`, call({ _meta: { progressToken: 'p1' } }));
    assert.equal(streamed.headers.get('content-type'), 'text/event-stream');
    const data = (await streamed.text()).split('\n').find((l) => l.startsWith('data: '));
    assert.equal(JSON.parse(data!.slice(6)).id, 5);
  });

  it('hands a tool a progress reporter only when the call carries a progress token, and its reports reach the SDK client in order', async () => {
    const client = await connect(`${base}/.api/mcp/all`);
    const seen: { progress: number; message?: string | undefined }[] = [];
    const withProgress = await client.callTool({ name: 'deepsearch', arguments: {} }, undefined, { onprogress: (p) => void seen.push({ progress: p.progress, message: p.message }) });
    assert.deepEqual(withProgress.content, [{ type: 'text', text: 'ran with progress' }]);
    assert.deepEqual(seen, [{ progress: 1, message: 'step 1' }, { progress: 2, message: 'step 2' }, { progress: 3, message: 'step 3' }]);
    const without = await client.callTool({ name: 'deepsearch', arguments: {} });
    assert.deepEqual(without.content, [{ type: 'text', text: 'ran without progress' }]);
    await client.close();
  });

  it('answers malformed JSON and a notification the way the transport specifies', async () => {
    const broken = await post(`${base}/.api/mcp`, '{"jsonrpc":');
    assert.equal(broken.status, 400);
    assert.equal((await broken.json() as any).error.code, -32700);
    const note = await post(`${base}/.api/mcp`, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.deepEqual([note.status, await note.text()], [202, '']);
  });
});

describe('access control', () => {
  it('refuses missing and bad credentials with 401 and a Bearer challenge', async () => {
    for (const headers of [{ Authorization: '' }, { Authorization: 'token nonsense' }]) {
      const response = await post(`${base}/.api/mcp`, LIST, headers);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="Quarry", error="invalid_token", .*scope="mcp", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/\.api\/mcp"$/);
      assert.equal((await response.json() as any).error, 'invalid_token');
    }
  });

  it('refuses a user without MCP#ACCESS with 403 forbidden', async () => {
    const response = await post(`${base}/.api/mcp/all`, LIST, { Authorization: 'token no-permission' });
    assert.deepEqual([response.status, await response.text()], [403, 'forbidden\n']);
  });

  it('answers GET and DELETE with 405, as a stateless server must', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/.api/mcp`, { method, headers: { Authorization: 'token good', Accept: 'text/event-stream' } });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    }
  });

  it('takes credentials only from the Authorization header, never from ?token=', async () => {
    const response = await fetch(`${base}/.api/mcp?token=good`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(LIST),
    });
    assert.equal(response.status, 401);
  });

  it('serves an endpoint path with a trailing slash as the endpoint', async () => {
    assert.equal((await post(`${base}/.api/mcp/all/`, LIST)).status, 200);
  });

  it('refuses foreign Host and Origin headers (DNS rebinding) and allows configured origins with CORS', async () => {
    const foreignOrigin = await post(`${base}/.api/mcp`, LIST, { Origin: 'https://evil.example' });
    assert.deepEqual([foreignOrigin.status, (await foreignOrigin.json() as any).error.message], [403, 'Forbidden']);
    const sameOrigin = await post(`${base}/.api/mcp`, LIST, { Origin: base });
    assert.equal(sameOrigin.status, 200);
    const allowed = await post(`${base}/.api/mcp`, LIST, { Origin: 'https://inspector.example' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://inspector.example');
    const preflight = await fetch(`${base}/.api/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://inspector.example', 'Access-Control-Request-Method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.match(preflight.headers.get('access-control-expose-headers') ?? '', /www-authenticate/);
  });

  it('answers every path under /.api/mcp with 404 "no route" while MCP is disabled', async () => {
    settings.current = { ...ENABLED, enabled: false };
    try {
      for (const path of ['/.api/mcp', '/.api/mcp/all', '/.api/mcp/deepsearch', '/.api/mcp/v1']) {
        const response = await post(`${base}${path}`, LIST);
        assert.deepEqual([response.status, await response.text()], [404, 'no route\n'], path);
      }
    } finally {
      settings.current = ENABLED;
    }
    assert.equal((await post(`${base}/.api/mcp`, LIST)).status, 200, 'enabled again without a restart');
  });
});
