/**
 * Deep search through a real `quarry serve`: the SDK client and the MCP Inspector CLI call
 * deepsearch and deepsearch_read as different users; answers cite only what the asker may read,
 * another user's normal link finds nothing, and the shared link opens that one conversation;
 * progress notifications follow the research; the tools' annotations say which one writes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPEN, SECRET, startRestrictedInstance, type RestrictedInstance } from '../restricted-instance.js';
import { fetchTool, FETCH_TIMEOUT_MS, INSPECTOR, runTool, stopAllTools, tail } from './external-tools.js';

const ROUTER = 'package web\n\n// Router dispatches each request to its handler by path.\nfunc Router(path string) string {\n\treturn dispatch(path)\n}\n\nfunc dispatch(path string) string {\n\treturn "handled " + path\n}\n';
const QUESTION = 'where is the Router defined and how does it dispatch a request?';

let instance: RestrictedInstance;

interface Progress {
  readonly progress: number;
  readonly message?: string | undefined;
}

async function connect(path: string, token: string): Promise<Client> {
  const client = new Client({ name: 'deepsearch-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${instance.server.url}${path}`), { requestInit: { headers: { Authorization: `token ${token}` } } }));
  return client;
}

/** `onprogress` makes the SDK client send a progress token with the call. */
async function call(path: string, token: string, name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void): Promise<{ text: string; isError: boolean }> {
  const client = await connect(path, token);
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, onprogress === undefined ? {} : { onprogress }) as { content: { type: string; text: string }[]; isError?: boolean };
    return { text: result.content[0]!.text, isError: result.isError === true };
  } finally {
    await client.close();
  }
}

const linkIn = (text: string): string => /Conversation: (\S+\/deepsearch\/[0-9a-f-]{36})/.exec(text)![1]!;

before(async () => {
  await fetchTool(INSPECTOR, ['--cli', '--version']);
  instance = await startRestrictedInstance({ 'web/router.go': ROUTER, 'README.md': '# open\n' });
}, { timeout: FETCH_TIMEOUT_MS + 60_000 });

after(async () => {
  stopAllTools();
  await instance?.close();
});

describe('deepsearch and deepsearch_read through the SDK client', () => {
  it('answers cited Markdown from the repositories the asker may read, and the conversation reads back', async () => {
    const [alice, admin] = await Promise.all([
      call('/.api/mcp/all', instance.aliceMcp, 'deepsearch', { question: QUESTION }),
      call('/.api/mcp/deepsearch', instance.admin, 'deepsearch', { question: QUESTION }),
    ]);
    assert.equal(alice.isError, false, alice.text);
    assert.match(alice.text, new RegExp(`\\(${instance.server.url}/github\\.com/acme/open@[0-9a-f]{40}/-/blob/web/router\\.go\\?L\\d+`));
    assert.match(alice.text, /func Router\(path string\) string/);
    assert.doesNotMatch(alice.text, /acme\/secret|secret plan/);
    assert.match(admin.text, /acme\/secret/, 'the admin, who may read it, gets it cited');

    const read = await call('/.api/mcp', instance.aliceMcp, 'deepsearch_read', { identifier: linkIn(alice.text) });
    assert.equal(read.isError, false, read.text);
    assert.match(read.text, /^# where is the Router defined/);
    assert.match(read.text, /## Question 1: where is the Router defined/);
    assert.match(read.text, /\*\*Sources\*\*\n\n- \[github\.com\/acme\/open – web\/router\.go:/);
    assert.ok(!read.text.includes(SECRET) && read.text.includes(OPEN));

    const adminLink = linkIn(admin.text);
    const denied = await call('/.api/mcp', instance.aliceMcp, 'deepsearch_read', { identifier: adminLink });
    assert.equal(denied.isError, true);
    assert.match(denied.text, /^No deep search conversation you can read/);
    const token = adminLink.slice(-36);
    const denied2 = await call('/.api/mcp', instance.aliceMcp, 'deepsearch_read', { identifier: token });
    assert.deepEqual(denied2.isError, true, 'the bare token is the normal form');
    const shared = await call('/.api/mcp', instance.aliceMcp, 'deepsearch_read', { identifier: adminLink.replace('/deepsearch/', '/deepsearch/shared/') });
    assert.equal(shared.isError, false, shared.text);
    assert.match(shared.text, new RegExp(`Conversation \\d+: \\S+/deepsearch/${token}`));
    const byAdmin = await call('/.api/mcp/deepsearch', instance.admin, 'deepsearch_read', { identifier: linkIn(alice.text) });
    assert.equal(byAdmin.isError, false, 'site admins read any conversation');
  });

  it('sends progress notifications, one per tool call of the research, to a client that sent a progress token', async () => {
    const seen: Progress[] = [];
    const answer = await call('/.api/mcp/deepsearch', instance.alice, 'deepsearch', { question: QUESTION }, (p) => void seen.push(p));
    assert.equal(answer.isError, false, answer.text);
    const toolCalls = Number(/_(\d+) tool calls, /.exec(answer.text)?.[1]);
    assert.ok(toolCalls > 0, answer.text);
    assert.equal(seen.length, toolCalls + 1, JSON.stringify(seen));
    assert.match(seen[0]!.message ?? '', /^Researching \(deep search conversation \d+\)$/);
    assert.deepEqual(seen.map((p) => p.progress), Array.from({ length: toolCalls + 1 }, (_, i) => i), 'progress grows by one per tool call');
    for (const p of seen.slice(1)) assert.match(p.message ?? '', /^(nls_search|keyword_search|read_file|list_files|go_to_definition|find_references) \{/);
  });

  it('declares deepsearch as writing (it starts a conversation) but not destructive, and deepsearch_read as read-only', async () => {
    const client = await connect('/.api/mcp/deepsearch', instance.alice);
    try {
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations]));
      assert.deepEqual(tools.get('deepsearch'), { readOnlyHint: false, destructiveHint: false, openWorldHint: false });
      assert.deepEqual(tools.get('deepsearch_read'), { readOnlyHint: true, openWorldHint: false });
    } finally {
      await client.close();
    }
  });

  it('refuses an identifier that is no link or token, saying what to pass', async () => {
    const bad = await call('/.api/mcp', instance.aliceMcp, 'deepsearch_read', { identifier: 'conversation 7' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /identifier must be a deep search link/);
  });
});

describe('deepsearch through the MCP Inspector CLI', () => {
  it('lists the deep search tools with their annotations', { timeout: 120_000 }, async () => {
    const listed = await runTool(INSPECTOR, ['--cli', `${instance.server.url}/.api/mcp/deepsearch`, '--transport', 'http', '--stored-auth-only', '--header', `Authorization: Bearer ${instance.alice}`, '--method', 'tools/list', '--format', 'json'], 60_000);
    assert.equal(listed.code, 0, `${tail(listed.stdout)}\n${tail(listed.stderr)}`);
    const tools = (JSON.parse(listed.stdout).result as { tools: { name: string; annotations?: Record<string, boolean> }[] }).tools;
    assert.deepEqual(tools.map((t) => [t.name, t.annotations]), [
      ['deepsearch', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }],
      ['deepsearch_read', { readOnlyHint: true, openWorldHint: false }],
    ]);
  });

  it('asks on /.api/mcp/deepsearch and reads the answer back', { timeout: 120_000 }, async () => {
    const inspect = (args: readonly string[]) => runTool(INSPECTOR, ['--cli', `${instance.server.url}/.api/mcp/deepsearch`, '--transport', 'http', '--stored-auth-only', '--header', `Authorization: Bearer ${instance.alice}`, ...args, '--format', 'json'], 60_000);
    const asked = await inspect(['--method', 'tools/call', '--tool-name', 'deepsearch', '--tool-arg', `question=${QUESTION}`]);
    assert.equal(asked.code, 0, `${tail(asked.stdout)}\n${tail(asked.stderr)}`);
    const text = (JSON.parse(asked.stdout).result as { content: { text: string }[] }).content[0]!.text;
    assert.match(text, /web\/router\.go/);
    const read = await inspect(['--method', 'tools/call', '--tool-name', 'deepsearch_read', '--tool-arg', `identifier=${linkIn(text)}`]);
    assert.equal(read.code, 0, tail(read.stderr));
    assert.match((JSON.parse(read.stdout).result as { content: { text: string }[] }).content[0]!.text, /## Question 1/);
  });
});
