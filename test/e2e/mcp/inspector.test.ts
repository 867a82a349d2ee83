/**
 * The MCP Inspector CLI against a real `quarry serve`: the tools each endpoint lists (with the
 * Inspector's schema portability check), a real tools/call, tool errors, and its auth_required
 * verdict when the caller brings no usable token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENDPOINT_PATHS } from '../../../src/api/mcp/registry.js';
import type { Endpoint } from '../../../src/api/mcp/tool.js';
import { fetchTool, FETCH_TIMEOUT_MS, INSPECTOR, runTool, stopAllTools, tail, type ToolRun } from './external-tools.js';
import { ENDPOINTS, expectedToolNames, FILE_CONTENT, FILE_PATH, REPO, startQuarry, type QuarryFixture } from './quarry-fixture.js';

const CALL_TIMEOUT_MS = 60_000;
/** The Inspector's exit codes for a refused login and for a tool answering isError. */
const EXIT_AUTH_REQUIRED = 3;
const EXIT_TOOL_ERROR = 5;

let quarry: QuarryFixture;

/** Runs `inspector --cli URL --transport http ARGS ... --format json`; the transport is named since /all and /deepsearch do not end in /mcp. */
function inspect(endpoint: Endpoint, args: readonly string[], token: string | null = quarry.adminToken): Promise<ToolRun> {
  // --stored-auth-only: never start an interactive OAuth login that would wait for a browser.
  const auth = ['--stored-auth-only', ...(token === null ? [] : ['--header', `Authorization: Bearer ${token}`])];
  return runTool(INSPECTOR, ['--cli', quarry.endpointUrl(endpoint), '--transport', 'http', ...args, ...auth, '--format', 'json'], CALL_TIMEOUT_MS);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function parsed(run: ToolRun, expectedCode = 0): any {
  assert.equal(run.code, expectedCode, `inspector exited ${run.code}:\n${tail(run.stdout)}\n${tail(run.stderr)}`);
  return JSON.parse(run.stdout);
}

before(async () => {
  await fetchTool(INSPECTOR, ['--cli', '--version']);
  quarry = await startQuarry();
}, { timeout: FETCH_TIMEOUT_MS + 60_000 });

after(async () => {
  stopAllTools();
  await quarry?.dispose();
});

describe('MCP Inspector CLI 2.12.0', () => {
  for (const endpoint of ENDPOINTS) {
    it(`lists exactly the registry's tools on ${ENDPOINT_PATHS[endpoint]}, with portable schemas`, { timeout: CALL_TIMEOUT_MS }, async () => {
      const run = await inspect(endpoint, ['--method', 'tools/list', '--strict']);
      const envelope = parsed(run);
      assert.deepEqual(envelope.schemaFindings, undefined, 'no schema portability finding, not even a warning');
      const { tools } = envelope.result as { tools: Array<{ name: string; description: string; inputSchema: { type: string } }> };
      assert.deepEqual(tools.map((t) => t.name).sort(), expectedToolNames(endpoint));
      for (const tool of tools) {
        assert.ok(tool.description.length > 0, `${tool.name} has a description`);
        assert.equal(tool.inputSchema.type, 'object');
      }
    });
  }

  it('calls read_file and gets the numbered file with its link', { timeout: CALL_TIMEOUT_MS }, async () => {
    const run = await inspect('core', ['--method', 'tools/call', '--tool-name', 'read_file', '--tool-arg', `repo=${REPO}`, `path=${FILE_PATH}`]);
    const result = parsed(run).result as { content: Array<{ type: string; text: string }>; structuredContent?: unknown; isError?: boolean };
    assert.equal(result.isError, undefined);
    assert.equal(result.content.length, 1);
    const [first, ...numbered] = result.content[0]!.text.split('\n');
    assert.match(first!, new RegExp(`^URL: ${escape(`${quarry.url}/${REPO}@`)}[0-9a-f]{40}${escape(`/-/blob/${FILE_PATH}`)}$`));
    const lines = FILE_CONTENT.split('\n');
    assert.deepEqual(numbered.slice(0, lines.length), lines.map((line, i) => `${i + 1}: ${line}`));
    assert.equal(result.structuredContent, undefined, 'the answer is text content only');
  });

  it('reports a tool error for a missing file as isError, exit code 5', { timeout: CALL_TIMEOUT_MS }, async () => {
    const run = await inspect('all', ['--method', 'tools/call', '--tool-name', 'read_file', '--tool-args-json', JSON.stringify({ repo: REPO, path: 'nope.go' })]);
    const result = parsed(run, EXIT_TOOL_ERROR).result as { content: Array<{ text: string }>; isError: boolean };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /^File not found: nope\.go/);
  });

  it('answers auth_required (exit 3) without a token and with an unknown one', { timeout: 2 * CALL_TIMEOUT_MS }, async () => {
    for (const token of [null, `sgp_local_${'0'.repeat(40)}`]) {
      const run = await inspect('core', ['--method', 'tools/list'], token);
      assert.equal(run.code, EXIT_AUTH_REQUIRED, `token ${token}: ${tail(run.stdout)}\n${tail(run.stderr)}`);
      const envelope = JSON.parse(run.stderr.split('\n').find((line) => line.startsWith('{"error"'))!) as { error: { code: string; message: string } };
      assert.equal(envelope.error.code, 'auth_required');
      assert.match(envelope.error.message, /invalid_token/);
    }
  });
});
