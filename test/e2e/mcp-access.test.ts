/**
 * The MCP endpoints of a real `quarry serve` process, reached with the SDK's own client over
 * loopback HTTP: each endpoint's tools, real tokens and scopes, MCP#ACCESS withdrawn and restored,
 * `mcp.enabled` switched off and on, and restricted repositories invisible through every tool.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CliRun } from './cli-process.js';
import { OPEN, SECRET, startRestrictedInstance, type RestrictedInstance } from './restricted-instance.js';
import type { ServerProcess } from './server-process.js';

let instance: RestrictedInstance;
let server: ServerProcess;
let admin = '';
let alice = '';
let aliceMcp = '';

const quarry = (args: string[]): CliRun => instance.quarry(args);

async function connect(path: string, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-access-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), { requestInit: { headers: { Authorization: `token ${token}` } } }));
  return client;
}

async function callAs(token: string, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const client = await connect('/.api/mcp', token);
  try {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as { text: string }[])[0]!.text, isError: result.isError === true };
  } finally {
    await client.close();
  }
}

function listTools(token: string): Promise<Response> {
  return fetch(`${server.url}/.api/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(token ? { Authorization: `token ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

const setConfig = (contents: string): void => instance.setConfig(contents);

before(async () => {
  instance = await startRestrictedInstance({ 'router.go': 'package open\n\nfunc Router() {}\n', 'docs/guide.md': '# Guide\nThe Router routes.\n' });
  ({ server, admin, alice, aliceMcp } = instance);
});

after(() => instance.close());

describe('the MCP endpoints of a running server', () => {
  it('lists exactly each endpoint\'s tools', async () => {
    const core = ['commit_search', 'diff_search', 'evaluator', 'keyword_search', 'list_files', 'list_refs', 'list_repos', 'nls_search', 'read_file'];
    const expected: Record<string, string[]> = {
      '/.api/mcp': [...core, 'deepsearch_read'].sort(),
      '/.api/mcp/all': [...core, 'compare_revisions', 'deepsearch', 'deepsearch_read', 'find_references', 'get_contributor_repos', 'go_to_definition'].sort(),
      '/.api/mcp/deepsearch': ['deepsearch', 'deepsearch_read'],
    };
    for (const [path, names] of Object.entries(expected)) {
      const client = await connect(path, aliceMcp);
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), names, path);
      await client.close();
    }
  });

  it('accepts mcp and user:all tokens here, and refuses mcp-only tokens on GraphQL', async () => {
    for (const token of [aliceMcp, alice]) assert.equal((await listTools(token)).status, 200);
    const graphql = await fetch(`${server.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${aliceMcp}` }, body: '{"query":"{ currentUser { username } }"}' });
    assert.deepEqual([graphql.status, await graphql.text()], [401, 'Invalid access token.\n']);
  });

  it('answers no or bad credentials with 401 and a challenge', async () => {
    for (const token of ['', `sgp_local_${'0'.repeat(40)}`]) {
      const response = await listTools(token);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer /);
    }
  });

  it('shows every tool only the repositories the caller may read', async () => {
    const adminRepos = await callAs(admin, 'list_repos', { query: 'acme' });
    assert.ok(adminRepos.text.includes(OPEN) && adminRepos.text.includes(SECRET), adminRepos.text);
    const aliceRepos = await callAs(aliceMcp, 'list_repos', { query: 'acme' });
    assert.ok(aliceRepos.text.includes(OPEN) && !aliceRepos.text.includes(SECRET), aliceRepos.text);
    const read = await callAs(aliceMcp, 'read_file', { repo: SECRET, path: 'plan.go' });
    assert.equal(read.isError, true);
    assert.match(read.text, /not found/i);
    assert.equal((await callAs(admin, 'read_file', { repo: SECRET, path: 'plan.go' })).text.includes('secret plan'), true);
    const files = await callAs(aliceMcp, 'list_files', { repo: SECRET });
    assert.equal(files.isError, true);
    const search = await callAs(aliceMcp, 'keyword_search', { query: 'Router' });
    assert.ok(search.text.includes(OPEN) && !search.text.includes(SECRET), search.text);
    const nls = await callAs(aliceMcp, 'nls_search', { query: 'where is the router' });
    assert.ok(!nls.text.includes(SECRET), nls.text);
  });

  it('runs evaluator scripts as the caller, attaches generated files, and stops a runaway one at the site\'s deadline', async () => {
    const client = await connect('/.api/mcp', aliceMcp);
    try {
      const script = 'local seen = {} for _, h in ipairs(search.keyword("Router")) do seen[h.repo] = true end\n' +
        'local repos = {} for repo in pairs(seen) do repos[#repos + 1] = repo end table.sort(repos)\n' +
        'output.file("repos.txt", table.concat(repos, "\\n")) print(#repos, repos[1])';
      const result = await client.callTool({ name: 'evaluator', arguments: { script } });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.content, [
        { type: 'text', text: `1\t${OPEN}\n\nAttached: repos.txt (text/plain, ${OPEN.length} bytes)\n(1 search, 0 source reads)\n` },
        { type: 'resource', resource: { uri: 'evaluator://output/repos.txt', mimeType: 'text/plain', text: OPEN } },
      ]);
      setConfig('{ "deepSearch.evaluator.maxExecutionSeconds": 2 }');
      const runaway = client.callTool({ name: 'evaluator', arguments: { script: 'print("spinning") while true do end' } });
      assert.equal((await listTools(alice)).status, 200, 'the server answers while a script spins');
      const stopped = (await runaway).content as { text: string }[];
      assert.match(stopped[0]!.text, /^spinning\n\nStopped: the script ran out of time: a run may take 2 s \(deepSearch\.evaluator\.maxExecutionSeconds\)/);
    } finally {
      setConfig('{}');
      await client.close();
    }
  });

  it('answers revisions that do not exist as tool errors', async () => {
    const answer = await callAs(alice, 'read_file', { repo: OPEN, path: 'router.go', revision: 'no-such-branch' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /no-such-branch/);
  });

  it('refuses users once MCP#ACCESS is withdrawn from their roles, on the next request', async () => {
    assert.equal(quarry(['roles', 'set', 'USER', '--permissions', '']).status, 0);
    try {
      const refused = await listTools(alice);
      assert.deepEqual([refused.status, await refused.text()], [403, 'forbidden\n']);
      assert.equal((await listTools(admin)).status, 200, 'site administrators keep every permission');
    } finally {
      assert.equal(quarry(['roles', 'set', 'USER', '--permissions', 'MCP#ACCESS']).status, 0);
    }
    assert.equal((await listTools(alice)).status, 200);
  });

  it('fits answers to the configured token budget, saying what was left out', async () => {
    const full = await callAs(admin, 'read_file', { repo: OPEN, path: 'docs/guide.md' });
    assert.match(full.text, /^URL: .*\n1: # Guide\n2: The Router routes\.\n/);
    setConfig('{ "mcp.maxAnswerTokens": 170 }');
    try {
      const cut = await callAs(admin, 'read_file', { repo: OPEN, path: 'docs/guide.md' });
      assert.ok(cut.text.length <= 170 * 4, `${cut.text.length} characters`);
      assert.notEqual(cut.text, full.text);
      assert.match(cut.text, /budget/);
    } finally {
      setConfig('{}');
    }
  });

  it('answers 404 "no route" under /.api/mcp while mcp.enabled is false, without a restart', async () => {
    setConfig('{ "mcp.enabled": false }');
    try {
      for (const path of ['/.api/mcp', '/.api/mcp/all', '/.api/mcp/deepsearch']) {
        const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `token ${admin}` }, body: '{}' });
        assert.deepEqual([response.status, await response.text()], [404, 'no route\n'], path);
      }
    } finally {
      setConfig('{}');
    }
    assert.equal((await listTools(admin)).status, 200);
  });
});
