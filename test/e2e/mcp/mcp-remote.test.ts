/**
 * mcp-remote, the stdio ↔ Streamable HTTP bridge desktop MCP clients use, against a real
 * `quarry serve`: its smoke client listing our tools, and its stdio proxy carrying a whole
 * session (initialize, tools/list, tools/call as JSON and as SSE, an unknown tool).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startAuthProxy, type AuthProxy } from './auth-proxy.js';
import { fetchTool, FETCH_TIMEOUT_MS, MCP_REMOTE_CLIENT, MCP_REMOTE_PROXY, runTool, startTool, stopAllTools, tail } from './external-tools.js';
import { expectedToolNames, FILE_CONTENT, FILE_PATH, REPO, startQuarry, type QuarryFixture } from './quarry-fixture.js';
import { stdioSession, type StdioSession } from './stdio-session.js';

const CALL_TIMEOUT_MS = 60_000;

let quarry: QuarryFixture;

function connectArgs(url: string): string[] {
  return [url, '--header', `Authorization: Bearer ${quarry.adminToken}`, '--transport', 'http-only'];
}

/** The JSON the smoke client logs after `Tools:`, up to its next `[pid]` log line. */
function loggedTools(output: string): string[] {
  const start = output.indexOf('Tools: ');
  assert.notEqual(start, -1, `the client logged no tools:\n${tail(output)}`);
  const block = output.slice(start + 'Tools: '.length).split(/\n\[\d+\]/)[0]!;
  return (JSON.parse(block) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort();
}

before(async () => {
  await fetchTool(MCP_REMOTE_CLIENT, ['--help']);
  quarry = await startQuarry();
}, { timeout: FETCH_TIMEOUT_MS + 60_000 });

after(async () => {
  stopAllTools();
  await quarry?.dispose();
});

describe('mcp-remote 0.15.1', () => {
  it('smoke client connects to /.api/mcp/all with a Bearer header and lists its tools', { timeout: CALL_TIMEOUT_MS + 10_000 }, async () => {
    // No input: stdin stays open, since the client quits as soon as stdin closes.
    const run = await runTool(MCP_REMOTE_CLIENT, connectArgs(quarry.endpointUrl('all')), CALL_TIMEOUT_MS);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, tail(output));
    assert.match(output, /Connected successfully!/);
    assert.doesNotMatch(output, /Error requesting tools list/);
    assert.deepEqual(loggedTools(output), expectedToolNames('all'));
  });

  describe('stdio proxy to /.api/mcp', () => {
    let bridge: ChildProcess;
    let session: StdioSession;
    // Only watches: the bridge sends its own Bearer header, which the recorder passes on untouched.
    let recorder: AuthProxy;

    before(async () => {
      recorder = await startAuthProxy(quarry.url, 'sgp_local_unused');
      bridge = startTool(MCP_REMOTE_PROXY, connectArgs(`${recorder.url}/.api/mcp`));
      session = stdioSession(bridge, CALL_TIMEOUT_MS);
    });

    after(async () => {
      bridge.stdin!.end();
      await recorder.close();
    });

    it('initializes with Quarry as the server and tools as its capability', { timeout: CALL_TIMEOUT_MS }, async () => {
      const answer = await session.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'quarry-e2e', version: '1.0.0' } });
      assert.equal(answer.error, undefined);
      assert.equal(answer.result.serverInfo.name, 'quarry');
      assert.equal(answer.result.protocolVersion, '2025-06-18');
      assert.deepEqual(answer.result.capabilities, { tools: {}, logging: {} });
      session.notify('notifications/initialized');
    });

    it('lists the core tools', { timeout: CALL_TIMEOUT_MS }, async () => {
      const answer = await session.request('tools/list');
      assert.deepEqual(answer.result.tools.map((t: { name: string }) => t.name).sort(), expectedToolNames('core'));
    });

    it('calls read_file, answered as JSON and, with a progress token, as SSE', { timeout: 2 * CALL_TIMEOUT_MS }, async () => {
      const args = { repo: REPO, path: FILE_PATH };
      const plain = await session.request('tools/call', { name: 'read_file', arguments: args });
      const streamed = await session.request('tools/call', { name: 'read_file', arguments: args, _meta: { progressToken: 'e2e-1' } });
      for (const answer of [plain, streamed]) {
        assert.equal(answer.error, undefined);
        const text = answer.result.content[0].text as string;
        assert.match(text, /^URL: .*\/-\/blob\/greet\/hello\.go\n/);
        assert.ok(text.includes(FILE_CONTENT.split('\n').map((line, i) => `${i + 1}: ${line}`).join('\n')), text);
      }
      assert.deepEqual(streamed.result, plain.result);
      const calls = recorder.exchanges.filter((e) => e.requestBody.includes('"tools/call"'));
      assert.deepEqual(calls.map((e) => [e.status, e.contentType.split(';')[0], e.requestBody.includes('e2e-1')]), [[200, 'application/json', false], [200, 'text/event-stream', true]]);
    });

    it('passes on the -32602 protocol error for an unknown tool', { timeout: CALL_TIMEOUT_MS }, async () => {
      const answer = await session.request('tools/call', { name: 'no_such_tool', arguments: {} });
      assert.equal(answer.error?.code, -32602);
      assert.match(answer.error?.message ?? '', /Unknown tool: no_such_tool/);
    });
  });
});
