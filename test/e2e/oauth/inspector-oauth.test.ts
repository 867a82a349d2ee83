/**
 * The MCP Inspector CLI 2.12.0 with an OAuth access token as its Bearer header, against a real
 * `quarry serve`: the token comes from the real flow (registration, sign-in, consent form, code
 * with PKCE, token), bound to /.api/mcp/all. The Inspector lists and calls tools with it; the same
 * token on another endpoint, and after it is revoked, gets auth_required.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetchTool, INSPECTOR, runTool, stopAllTools, tail, type ToolRun } from '../mcp/external-tools.js';
import { expectedToolNames, FILE_PATH, REPO } from '../mcp/quarry-fixture.js';
import { FormBrowser, startOAuthQuarry, type OAuthFixture } from './oauth-fixture.js';
import { tokensFor } from './oauth-flow.js';

const CALL_TIMEOUT_MS = 60_000;
const EXIT_AUTH_REQUIRED = 3;

let quarry: OAuthFixture;
let tokens: { clientId: string; access: string; refresh: string };

before(async () => {
  await fetchTool(INSPECTOR, ['--cli', '--version']);
  quarry = await startOAuthQuarry();
  const browser = new FormBrowser(quarry.url);
  assert.equal((await browser.signIn()).status, 303);
  tokens = await tokensFor(quarry.url, browser, { resource: quarry.endpointUrl('all') });
}, { timeout: 120_000 });

after(async () => {
  stopAllTools();
  await quarry?.dispose();
});

function inspect(url: string, args: readonly string[]): Promise<ToolRun> {
  // --stored-auth-only: a refused token ends in auth_required instead of an interactive login.
  return runTool(INSPECTOR, ['--cli', url, '--transport', 'http', ...args, '--header', `Authorization: Bearer ${tokens.access}`, '--stored-auth-only', '--format', 'json'], CALL_TIMEOUT_MS);
}

function authRequired(run: ToolRun): string {
  assert.equal(run.code, EXIT_AUTH_REQUIRED, `${tail(run.stdout)}\n${tail(run.stderr)}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith('{"error"'));
  assert.ok(line, tail(run.stderr));
  const { error } = JSON.parse(line) as { error: { code: string; message: string } };
  assert.equal(error.code, 'auth_required');
  return error.message;
}

describe('MCP Inspector CLI 2.12.0 with an OAuth access token', () => {
  it('lists the tools of the endpoint the token is bound to', { timeout: CALL_TIMEOUT_MS }, async () => {
    assert.match(tokens.access, /^sgo_at_/);
    const run = await inspect(quarry.endpointUrl('all'), ['--method', 'tools/list']);
    assert.equal(run.code, 0, `${tail(run.stdout)}\n${tail(run.stderr)}`);
    const { tools } = (JSON.parse(run.stdout) as { result: { tools: Array<{ name: string }> } }).result;
    assert.deepEqual(tools.map((t) => t.name).sort(), expectedToolNames('all'));
  });

  it('calls read_file with it', { timeout: CALL_TIMEOUT_MS }, async () => {
    const run = await inspect(quarry.endpointUrl('all'), ['--method', 'tools/call', '--tool-name', 'read_file', '--tool-arg', `repo=${REPO}`, `path=${FILE_PATH}`]);
    assert.equal(run.code, 0, `${tail(run.stdout)}\n${tail(run.stderr)}`);
    const result = (JSON.parse(run.stdout) as { result: { content: Array<{ text: string }>; isError?: boolean } }).result;
    assert.equal(result.isError, undefined);
    assert.match(result.content[0]!.text, /^URL: .*\/-\/blob\/greet\/hello\.go\n1: package greet\n/);
  });

  it('gets auth_required with the token on another endpoint, and once the token is revoked', { timeout: 3 * CALL_TIMEOUT_MS }, async () => {
    assert.match(authRequired(await inspect(quarry.endpointUrl('core'), ['--method', 'tools/list'])), /invalid_token/);
    const revoked = await fetch(`${quarry.url}/.auth/idp/oauth/revoke`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access, client_id: tokens.clientId }).toString(),
    });
    assert.equal(revoked.status, 200);
    assert.match(authRequired(await inspect(quarry.endpointUrl('all'), ['--method', 'tools/list'])), /invalid_token/);
  });
});
