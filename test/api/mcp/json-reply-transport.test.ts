/**
 * The protocol thread's own transport for the common request against the SDK's web-standard
 * transport, differentially: the same requests, once with the exact headers SDK clients send (our
 * transport) and once with a Content-Type spelled otherwise (the SDK's), must get the same status
 * and the same bytes; and which requests take which path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { objectSchema } from '../../../src/api/mcp/arguments.js';
import { bridgeMcpRequest, type ResponseSink } from '../../../src/api/mcp/bridge.js';
import { plainJsonRequest } from '../../../src/api/mcp/json-reply-transport.js';
import { createMcpServer, type ServerEnvironment } from '../../../src/api/mcp/mcp-server.js';
import type { ListedTool } from '../../../src/api/mcp/protocol-messages.js';

const TOOLS: ListedTool[] = [{
  name: 'echo', description: 'Says what it was given.', annotations: {},
  inputSchema: objectSchema({ text: { type: 'string', description: 'what to say' } }, ['text']),
}];

/** The main thread's side, as the protocol thread sees it: a tool that answers with its argument. */
const environment: ServerEnvironment = {
  version: '0.0.0-test',
  disabledTools: new Set(),
  disabledFor: () => new Set(),
  callTool: async (_, name, args) => ({ text: `${name}: ${(args as { text: string }).text}` }),
};

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const SDK_HEADERS = [['accept', 'application/json, text/event-stream'], ['content-type', 'application/json']] as const;
/** A spelling the SDK's transport accepts and ours leaves to it. */
const OTHER_HEADERS = [['accept', 'application/json, text/event-stream'], ['content-type', 'application/json; charset=utf-8']] as const;

async function answer(message: unknown, headers: readonly (readonly [string, string])[]): Promise<Answer> {
  let result: Answer | null = null;
  const sink: ResponseSink = {
    whole: (status, responseHeaders, body) => void (result = { status, headers: responseHeaders, body: Buffer.from(body).toString('utf8') }),
    streamHead: () => assert.fail('a JSON request answered with a stream'),
    streamChunk: () => assert.fail('a JSON request answered with a stream'),
    streamEnd: () => assert.fail('a JSON request answered with a stream'),
  };
  const body = new TextEncoder().encode(JSON.stringify(message));
  await bridgeMcpRequest({ method: 'POST', path: '/.api/mcp', headers, body }, createMcpServer('core', TOOLS, environment), 1, sink, new AbortController().signal);
  assert.ok(result !== null, 'no answer');
  return result;
}

const REQUESTS: Record<string, unknown> = {
  'ping': { jsonrpc: '2.0', id: 1, method: 'ping' },
  'tools/list': { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
  'a tool call': { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  'a call with bad arguments': { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 3, extra: true } } },
  'an unknown tool': { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope', arguments: {} } },
  'an unknown method': { jsonrpc: '2.0', id: 10, method: 'resources/list' },
  'a call without params': { jsonrpc: '2.0', id: 11, method: 'tools/call' },
};

for (const [what, message] of Object.entries(REQUESTS)) {
  test(`${what}: the same answer through our transport as through the SDK's`, async () => {
    assert.ok(plainJsonRequest('POST', SDK_HEADERS, structuredClone(message)) !== null, 'takes our transport');
    assert.equal(plainJsonRequest('POST', OTHER_HEADERS, structuredClone(message)), null, "takes the SDK's");
    const ours = await answer(structuredClone(message), SDK_HEADERS);
    const theirs = await answer(structuredClone(message), OTHER_HEADERS);
    assert.deepEqual(ours, theirs);
    assert.equal(ours.status, 200);
    assert.equal(JSON.parse(ours.body).id, (message as { id: unknown }).id);
  });
}

test('the tool call is answered by the tool, and bad arguments are a tool error', async () => {
  const called = JSON.parse((await answer(REQUESTS['a tool call'], SDK_HEADERS)).body);
  assert.deepEqual(called.result.content, [{ type: 'text', text: 'echo: hi' }]);
  const bad = JSON.parse((await answer(REQUESTS['a call with bad arguments'], SDK_HEADERS)).body);
  assert.equal(bad.result.isError, true);
});

test("what our transport leaves to the SDK's: initialize, notifications, batches, other headers, other versions, malformed messages", () => {
  const request = { jsonrpc: '2.0', id: 1, method: 'ping' };
  assert.equal(plainJsonRequest('POST', SDK_HEADERS, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }), null);
  assert.equal(plainJsonRequest('POST', SDK_HEADERS, { jsonrpc: '2.0', method: 'notifications/initialized' }), null);
  assert.equal(plainJsonRequest('POST', SDK_HEADERS, [request]), null);
  assert.equal(plainJsonRequest('GET', SDK_HEADERS, request), null);
  assert.equal(plainJsonRequest('POST', [['accept', 'application/json'], ['content-type', 'application/json']], request), null);
  assert.equal(plainJsonRequest('POST', [...SDK_HEADERS, ['mcp-protocol-version', '1999-01-01']], request), null);
  assert.ok(plainJsonRequest('POST', [...SDK_HEADERS, ['mcp-protocol-version', '2025-06-18']], request) !== null);
  assert.equal(plainJsonRequest('POST', SDK_HEADERS, { ...request, extra: 1 }), null, 'the SDK refuses members a request may not have');
  assert.equal(plainJsonRequest('POST', SDK_HEADERS, { jsonrpc: '1.0', id: 1, method: 'ping' }), null);
});
